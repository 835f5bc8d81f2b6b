package dev.parallax.engine.storage;

import dev.parallax.engine.memory.NativePage;
import dev.parallax.engine.memory.PageAllocator;

import java.util.ArrayList;
import java.util.List;

/**
 * One thread's reusable arrays for compacting the pages of one table
 * ({@link PagedTableStorage#prepareCompaction}, {@link PagedTableStorage#compactPage}): the slots a
 * compaction keeps and the slots it removes. Taken from {@link PagedTableStorage#compactionBuffers()}.
 * <p>
 * A {@link PreparedCompaction} refers to these arrays until it is published or abandoned, and a
 * {@link PageCompactionListener} reads them during the call that tells it: one thread uses one set
 * of buffers, and publishes (or abandons) each prepared compaction before it prepares the next.
 * <p>
 * They also hold the thread's spare page ({@link #close()} gives it back).
 * <p>
 * Why: two arrays of a page's slot count per compacted page were 40% of what VacuumBenchmark
 * allocated (JFR: about 70 MB per run of 9,232 pages), and with the copy's batch the young
 * collections they caused paused both VACUUM participants inside the measured run.
 */
public final class CompactionBuffers implements AutoCloseable {
    final int[] keptSlots;
    final int[] removedSlots;
    /**
     * A page this thread may overwrite, or null: the page its last compaction replaced, kept past
     * its grace period by {@link PagedTableStorage#recycleRetiredPages} while its bytes are still in
     * this core's cache. The next compacted copy is written over it, so the copy's stores hit lines
     * the cache holds instead of first fetching each one from memory.
     */
    NativePage spare;
    /** Scratch of {@link PagedTableStorage#recycleRetiredPages}: the retired pages it took. */
    final List<NativePage> recycled = new ArrayList<>();
    private final PageAllocator allocator;

    CompactionBuffers(int rowsPerPage, PageAllocator allocator) {
        this.keptSlots = new int[rowsPerPage];
        this.removedSlots = new int[rowsPerPage];
        this.allocator = allocator;
    }

    /** Gives the spare page back to the allocator; the buffers may still be used (they take a page again when needed). */
    @Override
    public void close() {
        NativePage page = spare;
        if (page != null) {
            spare = null;
            allocator.free(page);
        }
    }
}
