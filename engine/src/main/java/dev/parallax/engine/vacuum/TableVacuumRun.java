package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.storage.CompactionBuffers;
import dev.parallax.engine.storage.PageCompaction;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.PreparedCompaction;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One table's VACUUM while it runs: the owner (the participant that took the table) and, once no
 * table is left to hand out, idle participants ({@link #help}) claim its pages one at a time from a
 * shared cursor. Without helpers the last table of a parallel VACUUM kept one participant busy while
 * the others waited (JFR: the caller of a 16-table run parked about 7% of the run for its worker's
 * last table). Each page is compacted by one participant: the copy outside the storage's locks
 * ({@link PagedTableStorage#prepareCompaction}), the publish under the table's row-id lock
 * ({@link PagedTableStorage#publishCompaction}). After each page it replaced, a participant takes
 * the old page back as the target of its next copy once no reader can hold it
 * ({@link PagedTableStorage#recycleRetiredPages}); the owner frees what is left retired, shortens
 * the table and reports, after the helpers left.
 */
final class TableVacuumRun {
    private final Table table;
    private final PagedTableStorage storage;
    private final VacuumProgress progress;
    private final int pageCount;
    private final AtomicInteger nextPage = new AtomicInteger();
    /** Participants inside {@link #help}; the owner waits for none to be left before it finishes. */
    private final AtomicInteger helpers = new AtomicInteger();
    /** Set by the owner once its own claims ran out: helpers arriving later leave at once. */
    private volatile boolean closing;
    /** Totals of every participant, added under this object's monitor when each one stops. */
    private long pagesRemoved;
    private long rowsRemoved;
    private long deadRowsKept;
    private long entriesMoved;
    private long helperUserNanos;
    private long helperSystemNanos;

    TableVacuumRun(Table table, PagedTableStorage storage, VacuumProgress progress) {
        this.table = table;
        this.storage = storage;
        this.progress = progress;
        this.pageCount = storage.pageCount();
    }

    int pageCount() {
        return pageCount;
    }

    /** Pages not yet claimed (a hint for choosing which table to help). */
    int unclaimedPages() {
        return closing ? 0 : Math.max(0, pageCount - nextPage.get());
    }

    /**
     * Compacts pages of this table until none is left unclaimed or {@code stop} turns true. Called
     * by a participant that has no table of its own left; returns at once when the owner finished.
     */
    void help(BooleanSupplier stop) {
        helpers.incrementAndGet();
        try {
            if (closing) {
                return;
            }
            ThreadCpuTime cpuStart = ThreadCpuTime.now();
            compactClaimedPages(stop, false);
            ThreadCpuTime cpu = ThreadCpuTime.now().since(cpuStart);
            synchronized (this) {
                helperUserNanos += cpu.userNanos();
                helperSystemNanos += cpu.systemNanos();
            }
        } finally {
            helpers.decrementAndGet();
        }
    }

    /**
     * The owner's part: compacts pages until none is left, waits for the helpers' last pages, then
     * shortens the table past trailing holes and frees the retired pages.
     */
    void runAsOwner(BooleanSupplier cancelled) {
        try {
            compactClaimedPages(cancelled, true);
        } finally {
            closing = true;
            int spins = 0;
            while (helpers.get() != 0) {
                // A helper finishes the one page it claimed: a page's compaction, not more.
                if (++spins < 100) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
        try {
            // Holes an earlier compaction kept at the end for a snapshot since closed.
            RowIdLock rowIds = table.rowIdLock();
            long stamp = rowIds.lockForCompaction();
            try {
                storage.truncateTrailingHoles();
            } finally {
                rowIds.unlockAfterCompaction(stamp);
            }
            progress.pagesVacuumed(table.name(), pageCount, pageCount);
        } finally {
            storage.reclaimRetiredPages();
        }
    }

    private void compactClaimedPages(BooleanSupplier stop, boolean owner) {
        TableVacuum.IndexRepointer repointer = new TableVacuum.IndexRepointer(table, storage);
        RowIdLock rowIds = table.rowIdLock();
        long removedPages = 0;
        long removedRows = 0;
        long keptDeadRows = 0;
        int sinceReclaim = 0;
        try (CompactionBuffers buffers = storage.compactionBuffers()) {
            while (!stop.getAsBoolean()) {
                int pageIndex = nextPage.getAndIncrement();
                if (pageIndex >= pageCount || pageIndex >= storage.pageCount()) {
                    break; // done, or the tail was cut off: the pages past it were holes
                }
                progress.pagesVacuumed(table.name(), pageIndex, pageCount);
                if (storage.pageDeletedRows(pageIndex) == 0) {
                    continue;
                }
                PreparedCompaction prepared = storage.prepareCompaction(pageIndex, buffers);
                PageCompaction compaction;
                if (prepared.isDone()) {
                    compaction = prepared.outcome();
                } else {
                    long stamp = rowIds.lockForCompaction();
                    try {
                        compaction = storage.publishCompaction(prepared, buffers, repointer);
                    } finally {
                        rowIds.unlockAfterCompaction(stamp);
                    }
                }
                if (compaction.removedRows() > 0) {
                    // The page just replaced becomes the target of this participant's next copy.
                    storage.recycleRetiredPages(buffers);
                }
                removedRows += compaction.removedRows();
                keptDeadRows += compaction.deadRowsKept();
                if (compaction.pageFreed()) {
                    removedPages++;
                }
                // The owner frees memory steadily; helpers' retired pages wait for its next batch.
                if (owner && ++sinceReclaim == TableVacuum.RECLAIM_BATCH_PAGES) {
                    storage.reclaimRetiredPages();
                    sinceReclaim = 0;
                }
            }
        } finally {
            synchronized (this) {
                pagesRemoved += removedPages;
                rowsRemoved += removedRows;
                deadRowsKept += keptDeadRows;
                entriesMoved += repointer.entriesMoved;
            }
        }
    }

    synchronized long pagesRemoved() {
        return pagesRemoved;
    }

    synchronized long rowsRemoved() {
        return rowsRemoved;
    }

    synchronized long deadRowsKept() {
        return deadRowsKept;
    }

    synchronized long entriesMoved() {
        return entriesMoved;
    }

    synchronized long helperUserNanos() {
        return helperUserNanos;
    }

    synchronized long helperSystemNanos() {
        return helperSystemNanos;
    }
}
