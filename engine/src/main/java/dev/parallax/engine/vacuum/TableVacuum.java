package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.storage.PageCompaction;
import dev.parallax.engine.storage.PageCompactionListener;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * VACUUM of one table: reclaims the dead rows its deletes and updates left.
 *
 * <h2>The scheme, and why it is safe under concurrent scans and writes</h2>
 * <ul>
 *   <li><b>One page at a time, copy and swap.</b> A page with removable dead rows is copied,
 *       without them, in slot order, to a fresh page ({@link PagedTableStorage#compactPage});
 *       variable-width values are packed, so the heap space of dead rows comes back. The copy
 *       replaces the old page under the same page index with one release store; a page left
 *       without rows becomes a hole that reads as empty and goes back to the allocator (trailing
 *       holes shorten the table).</li>
 *   <li><b>The horizon: what open scans may still see stays.</b> Every scan registers its
 *       snapshot with the storage while it runs ({@link PagedTableStorage#openSnapshot}). A dead row
 *       is removable only when it died at or before the oldest open snapshot's sequence
 *       (PostgreSQL's xmin horizon); younger dead rows are kept, with their stamps, and reported as
 *       "dead but not yet removable". The partly covered last page of an open snapshot is not
 *       renumbered, and the table is not shortened below an open snapshot's page count, so rows
 *       appended later never slide into the part a snapshot covers.</li>
 *   <li><b>Scans see each row of their snapshot exactly once.</b> A scan reads a page in one call,
 *       from one page reference: the old copy or the new copy, which holds every row the scan's
 *       snapshot sees. Rows never move between pages, so a scan that has read page i before its
 *       compaction and page j after cannot miss or repeat a row: every row stays on its page.
 *       (Moving rows between pages would need scans to be excluded: that is VACUUM FULL's job.)</li>
 *   <li><b>Old pages outlive their readers.</b> Each page read registers in a read epoch for the
 *       duration of that one read; a replaced page is freed after the epoch advanced and the
 *       readers registered before had finished ({@link PagedTableStorage#reclaimRetiredPages}, an
 *       RCU grace period). Readers never wait for VACUUM.</li>
 *   <li><b>Writers.</b> Compaction holds the storage's write lock for one page: appends and deletes
 *       wait at most one page's compaction. Appends only touch the last page, which may be compacted
 *       too; the write lock orders them.</li>
 *   <li><b>Row ids.</b> Compaction renumbers slots within the page: the n-th live row moves to slot
 *       n. Unique-index entries of moved rows are repointed (compare-and-set from old to new id)
 *       before the new page is published, entries still naming dead rows are removed, both under
 *       the storage's write lock, so an insert's uniqueness check sees the final ids. Statements
 *       that hold row ids across calls pin them ({@link RowIdLock}); VACUUM takes that lock
 *       exclusively per page, so they never see ids change under them. A compaction moves the
 *       storage's relocation count ({@link PagedTableStorage#relocations}): ordered indexes built
 *       before it turn stale (rebuilt on their next use), point lookups that raced with it look
 *       again, and an open ordered-index scan keeps every page from being compacted.</li>
 * </ul>
 * One VACUUM of a table runs at a time ({@code MaintenanceActivity.vacuumLock}); different tables
 * vacuum in parallel.
 */
public final class TableVacuum {
    /** Pages compacted between two grace periods: frees memory steadily without a wait per page. */
    static final int RECLAIM_BATCH_PAGES = 64;

    private TableVacuum() {
    }

    /**
     * Vacuums {@code table}; a table whose storage is not paged (a system view) is left alone and
     * reported with zeros. {@code cancelled} is polled once per page (an interrupted vacuum leaves a
     * consistent, partly vacuumed table). Records the run in the table's maintenance activity.
     */
    public static VacuumReport vacuum(Table table, boolean automatic, VacuumProgress progress, BooleanSupplier cancelled) {
        Objects.requireNonNull(table, "table");
        long start = System.nanoTime();
        if (!(table.storage() instanceof PagedTableStorage storage)) {
            return new VacuumReport(table.name(), 0, 0, 0, 0, 0, table.storage().rowCount(), 0, System.nanoTime() - start, 0, 0);
        }
        table.maintenance().vacuumLock().lock();
        try {
            VacuumReport report = vacuumPages(table, storage, progress, cancelled, start);
            table.maintenance().recordVacuum(Instant.now(), automatic);
            return report;
        } finally {
            table.maintenance().vacuumLock().unlock();
        }
    }

    private static VacuumReport vacuumPages(Table table, PagedTableStorage storage, VacuumProgress progress,
                                            BooleanSupplier cancelled, long start) {
        long cpuStart = threadCpuNanos();
        long userStart = threadUserNanos();
        List<DataType> types = storage.columnTypes();
        Batch scratch = Batch.create(types, Batch.DEFAULT_CAPACITY);
        IndexRepointer repointer = new IndexRepointer(table, storage);
        RowIdLock rowIds = table.rowIdLock();
        int pageCount = storage.pageCount();
        long pagesRemoved = 0;
        long rowsRemoved = 0;
        long deadRowsKept = 0;
        int sinceReclaim = 0;
        try {
            for (int pageIndex = 0; pageIndex < pageCount; pageIndex++) {
                if (cancelled.getAsBoolean()) {
                    break;
                }
                progress.pagesVacuumed(table.name(), pageIndex, pageCount);
                if (pageIndex >= storage.pageCount()) {
                    break; // the tail was cut off: the pages past it were holes
                }
                if (storage.pageDeletedRows(pageIndex) == 0) {
                    continue;
                }
                long stamp = rowIds.lockForCompaction();
                PageCompaction compaction;
                try {
                    compaction = storage.compactPage(pageIndex, scratch, repointer);
                } finally {
                    rowIds.unlockAfterCompaction(stamp);
                }
                rowsRemoved += compaction.removedRows();
                deadRowsKept += compaction.deadRowsKept();
                if (compaction.pageFreed()) {
                    pagesRemoved++;
                }
                if (++sinceReclaim == RECLAIM_BATCH_PAGES) {
                    storage.reclaimRetiredPages();
                    sinceReclaim = 0;
                }
            }
            // Holes an earlier compaction kept at the end for a snapshot since closed.
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
        long pagesRemaining = storage.sizeBytes() / storage.layout().pageSizeBytes();
        long cpu = threadCpuNanos() - cpuStart;
        long user = threadUserNanos() - userStart;
        return new VacuumReport(table.name(), pageCount, pagesRemoved, pagesRemaining, rowsRemoved, deadRowsKept,
                storage.rowCount(), repointer.entriesMoved, System.nanoTime() - start, user, Math.max(0, cpu - user));
    }

    static long threadCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? Math.max(0, threads.getCurrentThreadCpuTime()) : 0;
    }

    static long threadUserNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? Math.max(0, threads.getCurrentThreadUserTime()) : 0;
    }

    /** Repoints unique-index entries at the rows' slots after compaction; drops entries of dead rows. */
    private static final class IndexRepointer implements PageCompactionListener {
        private final PagedTableStorage storage;
        private final List<UniqueConstraint> constraints;
        private final List<Batch> keyBatches = new ArrayList<>();
        private final int[] identityColumns;
        long entriesMoved;

        IndexRepointer(Table table, PagedTableStorage storage) {
            this.storage = storage;
            this.constraints = table.uniqueConstraints();
            int widest = 0;
            List<DataType> types = storage.columnTypes();
            for (UniqueConstraint constraint : constraints) {
                int[] keyColumns = constraint.keyColumns();
                List<DataType> keyTypes = new ArrayList<>(keyColumns.length);
                for (int column : keyColumns) {
                    keyTypes.add(types.get(column));
                }
                keyBatches.add(Batch.create(keyTypes, Batch.DEFAULT_CAPACITY));
                widest = Math.max(widest, keyColumns.length);
            }
            this.identityColumns = new int[widest];
            for (int index = 0; index < widest; index++) {
                identityColumns[index] = index;
            }
        }

        @Override
        public void compacting(int pageIndex, int[] keptSlots, int keptCount, int[] removedSlots, int removedCount) {
            for (int constraintIndex = 0; constraintIndex < constraints.size(); constraintIndex++) {
                UniqueConstraint constraint = constraints.get(constraintIndex);
                int[] keyColumns = constraint.keyColumns();
                int[] batchColumns = java.util.Arrays.copyOf(identityColumns, keyColumns.length);
                Batch keys = keyBatches.get(constraintIndex);
                storage.readSlots(pageIndex, removedSlots, removedCount, keyColumns, keys);
                for (int removed = 0; removed < removedCount; removed++) {
                    // Only when the key still names the dead row: a new row may hold the key by now.
                    constraint.index().remove(keys, batchColumns, removed, RowIds.pack(pageIndex, removedSlots[removed]));
                }
                storage.readSlots(pageIndex, keptSlots, keptCount, keyColumns, keys);
                for (int kept = 0; kept < keptCount; kept++) {
                    // Compare-and-set: a kept dead row's key usually names its newer version already.
                    if (keptSlots[kept] != kept
                            && constraint.index().replace(keys, batchColumns, kept, RowIds.pack(pageIndex, keptSlots[kept]),
                            RowIds.pack(pageIndex, kept))) {
                        entriesMoved++;
                    }
                }
            }
        }
    }
}
