package dev.parallax.engine.index;

import dev.parallax.engine.vector.Batch;

/**
 * An off-heap unique index of one partition: key -> packed row id ({@link RowIds}). Keys are read
 * from batch columns ({@code keyColumns[i]} holds the i-th key column of the definition). Every
 * method is thread-safe; point operations on one key are atomic (exactly one of several concurrent
 * {@code putIfAbsent}s of a key wins, {@code replace} and {@code remove} are compare-and-set).
 * Close frees the off-heap memory and returns it to the memory manager; no method may follow.
 */
public interface UniqueIndex extends AutoCloseable {
    IndexDefinition definition();

    /**
     * Follows ALTER TABLE ... RENAME COLUMN: key column {@code keyPosition} is named {@code newName}
     * in {@link #definition()} and in the messages of its violations from now on. Called by the
     * catalog under its lock (renames do not race each other).
     */
    void renameKeyColumn(int keyPosition, String newName);

    /** Number of keys held. */
    long size();

    /** Row id of the key at {@code position} of {@code keys}, or {@link RowIds#ABSENT}; a NULL key is absent. */
    long get(Batch keys, int[] keyColumns, int position);

    /**
     * Maps the key at {@code position} to {@code rowId} unless the key is present; returns whether it
     * did. A NULL key: primary key -> 23502; unique constraint -> nothing stored, returns true.
     */
    boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId);

    /**
     * Reusable state for {@link #get(Batch, int[], int, Object)} and {@link #putIfAbsent(Batch,
     * int[], int, long, Object)}, for a caller that keeps it and runs one operation at a time with
     * it, on any thread (a prepared statement): the index then skips finding the calling thread's
     * own. Null where the index keeps no such state.
     */
    default Object newPointScratch() {
        return null;
    }

    /** {@link #get(Batch, int[], int)} with {@code scratch} from {@link #newPointScratch} of this index (null: none). */
    default long get(Batch keys, int[] keyColumns, int position, Object scratch) {
        return get(keys, keyColumns, position);
    }

    /** {@link #putIfAbsent(Batch, int[], int, long)} with {@code scratch} from {@link #newPointScratch} of this index (null: none). */
    default boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId, Object scratch) {
        return putIfAbsent(keys, keyColumns, position, rowId);
    }

    /** Points the key at {@code newRowId} if it currently points at {@code expectedRowId}; returns whether it did. */
    boolean replace(Batch keys, int[] keyColumns, int position, long expectedRowId, long newRowId);

    /** Removes the key if it currently points at {@code expectedRowId}; returns whether it did. */
    boolean remove(Batch keys, int[] keyColumns, int position, long expectedRowId);

    /**
     * Looks up every live row of {@code keys} (honouring its selection) and writes the row id, or
     * {@link RowIds#ABSENT} for a missing or NULL key, to {@code rowIdsOut} at the row's position.
     */
    void lookup(Batch keys, int[] keyColumns, long[] rowIdsOut);

    /**
     * Inserts the key of every live row of {@code rows} pointing at {@code rowIds[position]}, all or
     * none: when a key is already present, or appears twice in the batch, the keys this call added
     * are removed again and 23505 is thrown ({@code duplicate key value violates unique constraint
     * "t_pkey"}, DETAIL {@code Key (id)=(42) already exists.}); a NULL key of a primary key throws
     * 23502 before anything is inserted. Concurrent readers may briefly see keys of a batch that then
     * fails (there are no transactions yet).
     */
    void insertAll(Batch rows, int[] keyColumns, long[] rowIds);

    /**
     * Announces that a bulk insert (INSERT ... SELECT, COPY) is about to add up to {@code keys} keys.
     * When they would take the index past the fill at which it begins to grow, it grows now, on the
     * calling thread, to a size that holds them with as much room again to spare, instead of
     * doubling several times during the insert and once more soon after it. Other operations on the
     * index go on meanwhile. Never fails: when the memory budget is short it does nothing, and the
     * inserts grow the index step by step (failing at their hard limit, 53200, as without it). A
     * count too high (rows with NULL keys of a UNIQUE constraint, a failing insert) only costs memory.
     */
    void prepareForInserts(long keys);

    /**
     * The 23505 error for the key at {@code position} conflicting with a present key: PostgreSQL's
     * {@code duplicate key value violates unique constraint "t_pkey"} with DETAIL
     * {@code Key (id)=(42) already exists.}
     */
    dev.parallax.engine.error.ParallaxException duplicateKeyError(Batch keys, int[] keyColumns, int position);

    /** Off-heap bytes this index holds reserved against the memory manager. */
    long reservedBytes();

    /** Frees the map and releases its reservation. Idempotent. Must not race with other calls. */
    @Override
    void close();
}
