package dev.parallax.engine.index;

import dev.parallax.engine.memory.ReadEpochs;

/**
 * The unboxed point lookup of a unique index keyed by one long-held column: what a prepared point
 * query calls once per execution ({@link UniqueIndexes#longKeys}).
 */
public interface LongKeyLookup {
    /**
     * The row id (as {@link RowIds} packs it, in the storage the index belongs to) of the row whose
     * key is {@code key}, or {@link RowIds#ABSENT}. Thread-safe; allocates nothing.
     */
    long get(long key);

    /**
     * {@link #get} for a caller that holds a registration of {@link #readEpochs()} for the call
     * ({@link ReadEpochs#enter}): the index map is read without a lock, and a point query registers
     * once for its probe and its row read.
     */
    long getRegistered(long key);

    /** The read registrations {@link #getRegistered} must be called within: the database's. */
    ReadEpochs readEpochs();
}
