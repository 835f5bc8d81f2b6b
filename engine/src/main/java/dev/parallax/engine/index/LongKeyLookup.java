package dev.parallax.engine.index;

/**
 * The unboxed point lookup of a unique index keyed by one long-held column: what a prepared point
 * query calls once per execution ({@link UniqueIndexes#longKeys}).
 */
@FunctionalInterface
public interface LongKeyLookup {
    /**
     * The row id (as {@link RowIds} packs it, in the storage the index belongs to) of the row whose
     * key is {@code key}, or {@link RowIds#ABSENT}. Thread-safe; allocates nothing.
     */
    long get(long key);
}
