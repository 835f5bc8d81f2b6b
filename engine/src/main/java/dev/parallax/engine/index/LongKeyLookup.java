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

    /**
     * {@link #get(long)} with {@code scratch} from {@link #newPointScratch} (null: none), for a caller
     * that keeps it and looks up one key at a time with it, on any thread.
     */
    default long get(long key, Object scratch) {
        return get(key);
    }

    /** Reusable state for {@link #get(long, Object)} (see {@link UniqueIndex#newPointScratch}), or null. */
    default Object newPointScratch() {
        return null;
    }
}
