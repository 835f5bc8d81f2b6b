package dev.parallax.engine.storage;

import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * A check run by {@link PagedTableStorage#appendAll(List, AppendGuard)} between writing the rows
 * and publishing them, when their row ids are known but no reader can see them yet (used to
 * enforce unique constraints: the keys go into the index with the rows' final ids, and a
 * violation abandons the append).
 */
@FunctionalInterface
public interface AppendGuard {
    /**
     * Called once per append under the storage's write lock. {@code rowIds[b][position]} is the row id
     * of the live row at {@code position} of {@code batches.get(b)} (other positions are unspecified).
     * Throwing abandons the whole append; the exception reaches the appender unchanged.
     */
    void rowsPlaced(List<Batch> batches, long[][] rowIds);

    /**
     * Called once the step's rows and deaths are published, still under the storage's write lock,
     * when {@link #rowsPlaced} returned normally: for index changes that must not be seen before
     * the rows are (an entry moved from a row's old version to its new one). The step is done:
     * this must not throw. The default does nothing.
     */
    default void published() {
    }

    /**
     * The array handed to {@link #rowsPlaced} as {@code rowIds}, of at least {@code batchCount}
     * elements: new by default; a guard may hand out one it keeps (a point upsert made one per statement).
     */
    default long[][] rowIdArrays(int batchCount) {
        return new long[batchCount][];
    }

    /** The array for the row ids of batch {@code batchIndex}, of at least {@code rowCount} elements: new by default, or one the guard keeps. */
    default long[] rowIdArray(int batchIndex, int rowCount) {
        return new long[rowCount];
    }
}
