package dev.parallax.engine.storage;

/**
 * One thread's reusable arrays for compacting the pages of one table
 * ({@link PagedTableStorage#prepareCompaction}, {@link PagedTableStorage#compactPage}): the slots a
 * compaction keeps and the slots it removes. Taken from {@link PagedTableStorage#compactionBuffers()}.
 * <p>
 * A {@link PreparedCompaction} refers to these arrays until it is published or abandoned, and a
 * {@link PageCompactionListener} reads them during the call that tells it: one thread uses one set
 * of buffers, and publishes (or abandons) each prepared compaction before it prepares the next.
 * <p>
 * Why: two arrays of a page's slot count per compacted page were 40% of what VacuumBenchmark
 * allocated (JFR: about 70 MB per run of 9,232 pages), and with the copy's batch the young
 * collections they caused paused both VACUUM participants inside the measured run.
 */
public final class CompactionBuffers {
    final int[] keptSlots;
    final int[] removedSlots;

    CompactionBuffers(int rowsPerPage) {
        this.keptSlots = new int[rowsPerPage];
        this.removedSlots = new int[rowsPerPage];
    }
}
