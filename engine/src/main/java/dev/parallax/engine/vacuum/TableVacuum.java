package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.storage.PageCompactionListener;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

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
 *   <li><b>Writers.</b> The rows to remove are chosen under the storage's write lock, the copy is
 *       made without it ({@link PagedTableStorage#prepareCompaction}), and the new page is published
 *       under it only if no writer changed the table meanwhile (its change sequence); otherwise the
 *       page is compacted again under the lock. Appends and deletes thus wait at most for one
 *       page's publish (or, under contention, one compaction). Appends only touch the last page,
 *       which may be compacted too; the write lock orders them.</li>
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
 * vacuum in parallel, and in a parallel VACUUM idle participants help the tables still running,
 * page by page ({@link TableVacuumRun}).
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
        return vacuum(table, automatic, progress, cancelled, null);
    }

    /**
     * As {@link #vacuum(Table, boolean, VacuumProgress, BooleanSupplier)}; {@code started} (when not
     * null) receives the run as soon as it starts, so that idle participants of a parallel VACUUM
     * can help with its pages ({@link TableVacuumRun#help}). Returns once every helper left.
     */
    static VacuumReport vacuum(Table table, boolean automatic, VacuumProgress progress, BooleanSupplier cancelled,
                               Consumer<TableVacuumRun> started) {
        Objects.requireNonNull(table, "table");
        long start = System.nanoTime();
        if (!(table.storage() instanceof PagedTableStorage storage)) {
            return new VacuumReport(table.name(), 0, 0, 0, 0, 0, table.storage().rowCount(), 0, System.nanoTime() - start, 0, 0);
        }
        table.maintenance().vacuumLock().lock();
        // Slabs the compaction empties wait for the next compacted copies instead of being closed
        // (a handshake with every thread) and allocated again; see PageAllocator.holdEmptySlabs.
        try (PageAllocator.EmptySlabHold slabs = storage.holdEmptySlabs()) {
            ThreadCpuTime cpuStart = ThreadCpuTime.now();
            TableVacuumRun run = new TableVacuumRun(table, storage, progress);
            if (started != null) {
                started.accept(run);
            }
            run.runAsOwner(cancelled);
            ThreadCpuTime cpu = ThreadCpuTime.now().since(cpuStart);
            long user = cpu.userNanos() + run.helperUserNanos();
            long system = cpu.systemNanos() + run.helperSystemNanos();
            long pagesRemaining = storage.sizeBytes() / storage.layout().pageSizeBytes();
            VacuumReport report = new VacuumReport(table.name(), run.pageCount(), run.pagesRemoved(), pagesRemaining,
                    run.rowsRemoved(), run.deadRowsKept(), storage.rowCount(), run.entriesMoved(), System.nanoTime() - start,
                    user, system);
            table.maintenance().recordVacuum(Instant.now(), automatic);
            return report;
        } finally {
            table.maintenance().vacuumLock().unlock();
        }
    }

    /** Repoints unique-index entries at the rows' slots after compaction; drops entries of dead rows. One per participant. */
    static final class IndexRepointer implements PageCompactionListener {
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
