package dev.parallax.engine.index;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.sort.BatchRowComparator;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.sort.SortedOutput;
import dev.parallax.engine.sort.SortedStreamMerger;
import dev.parallax.engine.sort.Sorter;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.StampedLock;

/**
 * An ordered (B-tree-like) secondary index built by sorting: the table's row ids
 * ({@link RowIds}, 64-bit) in the order of the key columns, held off-heap. Keys ascend with NULLs
 * last, as a PostgreSQL btree's default; equal keys are ordered by row id (PostgreSQL 12+ btrees
 * use the heap TID as the last key the same way), so the order is total and the build
 * deterministic whatever the parallelism.
 *
 * <p>Building: the table's pages are split into contiguous ranges, one per participant (the
 * caller plus the workers granted, at most {@code max_parallel_maintenance_workers}); each sorts
 * its range's (keys, row id) rows with its own {@link Sorter} and {@code maintenance_work_mem}
 * divided among the participants (as PostgreSQL divides it), spilling past it; the sorted streams
 * are merged into the row id array.
 *
 * <p>Row ids address a row's slot in its page ({@link RowIds}), as the unique indexes' do. The
 * index holds the rows a snapshot of the table saw ({@link ScanSnapshot}: the pages and slots
 * published then, minus the rows dead then). Rows deleted afterwards (and the old versions of
 * updated rows) stay entries, as in a PostgreSQL btree until VACUUM: readers skip the entries their
 * own snapshot does not see ({@link TableStorage#retainVisible}). Rows appended afterwards (inserts,
 * the new versions of updates) make the index not {@link #isCurrent current}; the next reader
 * brings it up to date in one batch, under the exclusive lock: it sorts just the appended rows and
 * places each into the existing order with a binary search (the searches of all of them run level
 * by level, each level one batched key read), then moves the old entries around them, in place
 * when the array has room, O(appended * log(entries) + entries) instead of re-sorting the table. When so many rows were appended that the placements would cost more than
 * a sort, it re-sorts the table instead ({@link #rebuild} does that on request). A VACUUM
 * compaction renumbers slots and makes the index need a full rebuild
 * ({@link TableStorage#relocations}). A dead slot keeps its values until VACUUM, and VACUUM
 * compacts no page while an index scan holds row ids
 * ({@link dev.parallax.engine.storage.SnapshotUse#ROW_IDS}), so an open reader still reads the rows it indexed.
 *
 * <p>Thread-safety: the row ids are immutable once built and may be read by any number of
 * threads; {@link #rebuild} and {@link #close} must not run concurrently with readers.
 */
public final class OrderedIndex implements AutoCloseable {
    private final String name;
    private final Table table;
    private final int[] keyColumns;
    /**
     * The key columns declared DESC (PostgreSQL's DESC NULLS FIRST), as CREATE INDEX wrote them and
     * pg_indexes shows them. The entries are kept in ascending order all the same: the index holds
     * the same rows either way and is read in whichever direction a scan needs.
     */
    private final boolean[] descendingKeys;
    private Arena arena;
    private MemorySegment rowIds;
    private long entryCount;
    private long builtChangeSequence = -1;
    /** The snapshot whose rows the index holds; null for storage without versions (then the change sequence tells staleness). */
    private ScanSnapshot covered;
    /** Times appended rows were merged into the existing order instead of re-sorting the table. */
    private long appendMerges;
    /** The storage's relocation count when the build started: a VACUUM compaction since renumbered slots. */
    private long builtRelocations = -1;
    private int participants;
    private volatile boolean closed;
    /** Readers (scans) share it; rebuilds and close take it exclusively. */
    private final StampedLock lock = new StampedLock();

    private OrderedIndex(String name, Table table, int[] keyColumns, boolean[] descendingKeys) {
        this.name = Objects.requireNonNull(name, "name");
        this.table = Objects.requireNonNull(table, "table");
        this.keyColumns = keyColumns.clone();
        this.descendingKeys = descendingKeys == null ? new boolean[keyColumns.length] : descendingKeys.clone();
        if (this.descendingKeys.length != this.keyColumns.length) {
            throw new IllegalArgumentException("one order per key column");
        }
        if (this.keyColumns.length == 0) {
            throw new IllegalArgumentException("an index needs at least one key column");
        }
        for (int column : this.keyColumns) {
            if (column < 0 || column >= table.columns().size()) {
                throw new IllegalArgumentException("key column " + column + " is not a column of " + table.name());
            }
        }
    }

    /**
     * Builds the index {@code name} over {@code keyColumns} (table column positions, most
     * significant first) of {@code table}.
     *
     * @param options        the sort's memory (maintenance_work_mem, for all participants together) and spill directory
     * @param workers        the database's workers; may be null to build on the calling thread alone
     * @param maximumWorkers workers wanted besides the caller (max_parallel_maintenance_workers)
     * @param sessionLimit   the session's max_parallel_workers
     */
    public static OrderedIndex build(String name, Table table, int[] keyColumns, SortOptions options,
                                     WorkerPool workers, int maximumWorkers, int sessionLimit) {
        return build(name, table, keyColumns, options, workers, maximumWorkers, sessionLimit, null);
    }

    /**
     * As {@link #build(String, Table, int[], SortOptions, WorkerPool, int, int)}, reporting to
     * {@code statement} (may be null): its progress shows the pages scanned, then the entries
     * loaded, in PostgreSQL's CREATE INDEX phase names, and cancelling it stops the build (every
     * participant checks once per page) with nothing left behind.
     */
    public static OrderedIndex build(String name, Table table, int[] keyColumns, SortOptions options,
                                     WorkerPool workers, int maximumWorkers, int sessionLimit, ExecutionContext statement) {
        return build(name, table, keyColumns, null, options, workers, maximumWorkers, sessionLimit, statement);
    }

    /**
     * As {@link #build(String, Table, int[], SortOptions, WorkerPool, int, int, ExecutionContext)},
     * with the key columns declared DESC ({@code descendingKeys}, one per key column; null for none).
     */
    public static OrderedIndex build(String name, Table table, int[] keyColumns, boolean[] descendingKeys, SortOptions options,
                                     WorkerPool workers, int maximumWorkers, int sessionLimit, ExecutionContext statement) {
        OrderedIndex index = new OrderedIndex(name, table, keyColumns, descendingKeys);
        try {
            index.sortRows(options, workers, maximumWorkers, sessionLimit, statement);
        } catch (RuntimeException | Error failure) {
            index.close();
            throw failure;
        }
        return index;
    }

    /** Re-sorts the table's current rows, replacing the row ids (after rows were appended); waits for open readers. */
    public void rebuild(SortOptions options, WorkerPool workers, int maximumWorkers, int sessionLimit) {
        long stamp = lock.writeLock();
        try {
            checkOpen();
            sortRows(options, workers, maximumWorkers, sessionLimit, null);
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Opens the index for a scan: a stale index is first brought up to date (appended rows merged
     * in, or the table re-sorted; see the class comment), and until the returned
     * reader is closed no rebuild or DROP changes the row ids it reads (they wait), so a scan never
     * skips or repeats rows because another session rebuilt the index. Readers do not block each
     * other. The lock is a StampedLock: a reader may be closed by another thread than opened it.
     */
    public Reader openReader(SortOptions options, WorkerPool workers, int maximumWorkers, int sessionLimit) {
        long stamp = lock.readLock();
        if (closed || !isCurrent()) {
            lock.unlockRead(stamp);
            stamp = lock.writeLock();
            try {
                checkOpen();
                if (!isCurrent()) {
                    bringUpToDate(options, workers, maximumWorkers, sessionLimit);
                }
            } catch (RuntimeException failure) {
                lock.unlockWrite(stamp);
                throw failure;
            }
            stamp = lock.tryConvertToReadLock(stamp);
        }
        return new Reader(stamp);
    }

    /** An open scan's hold on the index; see {@link #openReader}. */
    public final class Reader implements AutoCloseable {
        private final long stamp;
        private boolean released;

        private Reader(long stamp) {
            this.stamp = stamp;
        }

        /** Releases the hold; idempotent. */
        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                lock.unlockRead(stamp);
            }
        }
    }

    public String name() {
        return name;
    }

    public Table table() {
        return table;
    }

    /** The key columns' positions in the table, most significant first. */
    public int[] keyColumns() {
        return keyColumns.clone();
    }

    /** Which key columns were declared DESC, one flag per key column. */
    public boolean[] descendingKeys() {
        return descendingKeys.clone();
    }

    /** Entries (rows indexed). */
    public long entryCount() {
        return entryCount;
    }

    /** Participants of the last build (1 = the calling thread alone). */
    public int buildParticipants() {
        return participants;
    }

    /** Off-heap bytes held. */
    public long sizeBytes() {
        return rowIds == null ? 0 : rowIds.byteSize();
    }

    /**
     * True when the index holds every row the table holds, at the same row ids: no row appended
     * since it was built or last brought up to date, and no VACUUM compaction renumbered a page's
     * slots. Entries of rows deleted since remain (readers skip them), so deletes do not make it
     * stale; on storage without versions any write does.
     */
    public boolean isCurrent() {
        TableStorage storage = table.storage();
        if (closed || storage.relocations() != builtRelocations) {
            return false;
        }
        ScanSnapshot coveredNow = covered;
        if (coveredNow == null) {
            return storage.changeSequence() == builtChangeSequence;
        }
        ScanSnapshot now = storage.snapshot();
        return now != null && now.pageCount() == coveredNow.pageCount() && now.lastPageSlots() == coveredNow.lastPageSlots();
    }

    /** How many times appended rows were merged into the index instead of a re-sort (for tests and diagnostics). */
    public long appendMerges() {
        return appendMerges;
    }

    /** The row id at {@code position} (0-based) in key order. */
    public long rowId(long position) {
        checkOpen();
        Objects.checkIndex(position, entryCount);
        return rowIds.getAtIndex(ValueLayout.JAVA_LONG, position);
    }

    /** Frees the row ids (after open readers finish); idempotent. The index must not be read afterwards. */
    @Override
    public void close() {
        long stamp = lock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (arena != null) {
                arena.close();
                arena = null;
                rowIds = null;
            }
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("index " + name + " was dropped");
        }
    }

    private void sortRows(SortOptions options, WorkerPool workers, int maximumWorkers, int sessionLimit, ExecutionContext statement) {
        TableStorage storage = table.storage();
        // A compaction while the pages are read makes the index stale (an odd count never matches a finished one).
        long relocationsAtStart = storage.relocations();
        // The build indexes exactly the rows this snapshot sees: rows appended meanwhile are left
        // for the next catch-up, never indexed twice. Without versions, rows written while the
        // pages are read make the index stale (the sequence moved), never wrongly current.
        ScanSnapshot snapshot = storage.snapshot();
        long sequenceAtStart = snapshot == null ? storage.changeSequence() : snapshot.sequence();
        long rowCountAtStart = storage.rowCount();
        int pageCount = snapshot == null ? storage.pageCount() : snapshot.pageCount();
        List<DataType> sortTypes = sortTypes();
        List<SortKey> sortKeys = sortKeys();

        int wanted = workers == null ? 0 : Math.max(0, Math.min(maximumWorkers, pageCount - 1));
        int granted = wanted == 0 ? 0 : workers.acquire(wanted, sessionLimit);
        int participantCount = granted + 1;
        SortOptions participantOptions = options.withWorkMemBytes(Math.max(64 * 1024, options.workMemBytes() / participantCount));
        List<Sorter> sorters = new ArrayList<>(participantCount);
        List<SortedOutput> outputs = new ArrayList<>(participantCount);
        List<CompletableFuture<SortedOutput>> workerSorts = new ArrayList<>(granted);
        BuildProgress progress = new BuildProgress(statement, pageCount, rowCountAtStart);
        try {
            for (int participant = 0; participant < participantCount; participant++) {
                sorters.add(new Sorter(sortTypes, sortKeys, -1, participantOptions));
            }
            for (int participant = 1; participant < participantCount; participant++) {
                int first = (int) ((long) pageCount * participant / participantCount);
                int end = (int) ((long) pageCount * (participant + 1) / participantCount);
                Sorter sorter = sorters.get(participant);
                workerSorts.add(CompletableFuture.supplyAsync(() -> sortPages(storage, snapshot, sorter, sortTypes, first, end, progress),
                        workers.pool()));
            }
            // The caller sorts the first range itself, as PostgreSQL's leader participates.
            SortedOutput leader = sortPages(storage, snapshot, sorters.getFirst(), sortTypes, 0, (int) ((long) pageCount / participantCount),
                    progress);
            outputs.add(leader);
            for (CompletableFuture<SortedOutput> sort : workerSorts) {
                outputs.add(join(sort));
            }
            try (SortedOutput merged = participantCount == 1 ? leader : new SortedStreamMerger(sortTypes, sortKeys, outputs)) {
                replaceRowIds(merged, keyColumns.length, rowCountAtStart, progress);
            }
            participants = participantCount;
            builtChangeSequence = sequenceAtStart;
            builtRelocations = relocationsAtStart;
            covered = snapshot;
        } finally {
            // A failed or cancelled build must not free a sorter a worker still fills: wait for
            // every worker, and close the outputs of those the failure left unclaimed.
            for (CompletableFuture<SortedOutput> sort : workerSorts) {
                try {
                    SortedOutput output = sort.join();
                    if (!outputs.contains(output)) {
                        output.close();
                    }
                } catch (CompletionException | CancellationException ignored) {
                    // Its failure is the build's failure, already on its way up (or a consequence of it).
                }
            }
            for (SortedOutput output : outputs) {
                output.close();
            }
            for (Sorter sorter : sorters) {
                sorter.close();
            }
            if (granted > 0) {
                workers.release(granted);
            }
        }
    }

    private static SortedOutput join(CompletableFuture<SortedOutput> sort) {
        try {
            return sort.join();
        } catch (CompletionException failure) {
            if (failure.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (failure.getCause() instanceof Error error) {
                throw error;
            }
            throw failure;
        }
    }

    /** The sorted rows: the key columns, then the row id (the last key, so equal keys order by row id). */
    private List<DataType> sortTypes() {
        List<DataType> tableTypes = table.columnTypes();
        List<DataType> sortTypes = new ArrayList<>(keyColumns.length + 1);
        for (int keyColumn : keyColumns) {
            sortTypes.add(tableTypes.get(keyColumn));
        }
        sortTypes.add(DataType.BIGINT);
        return sortTypes;
    }

    /** Every key ascending with NULLs last (a btree's default order), the row id last. */
    private List<SortKey> sortKeys() {
        List<SortKey> sortKeys = new ArrayList<>(keyColumns.length + 1);
        for (int key = 0; key <= keyColumns.length; key++) {
            sortKeys.add(new SortKey(key, false, false));
        }
        return sortKeys;
    }

    /**
     * Brings a stale index up to date (the caller holds the lock exclusively): merges the rows
     * appended since {@link #covered} into the existing order when that is cheaper than sorting
     * the table again, else re-sorts.
     */
    private void bringUpToDate(SortOptions options, WorkerPool workers, int maximumWorkers, int sessionLimit) {
        TableStorage storage = table.storage();
        long relocationsAtStart = storage.relocations();
        ScanSnapshot now = storage.snapshot();
        ScanSnapshot before = covered;
        boolean onlyAppended = before != null && now != null && relocationsAtStart == builtRelocations && (relocationsAtStart & 1) == 0
                && (now.pageCount() > before.pageCount()
                    || (now.pageCount() == before.pageCount() && now.lastPageSlots() >= before.lastPageSlots()));
        if (!onlyAppended || entryCount == 0) {
            sortRows(options, workers, maximumWorkers, sessionLimit, null);
            return;
        }
        try (Sorter sorter = new Sorter(sortTypes(), sortKeys(), -1, options)) {
            long appended = sortAppended(storage, sorter, before, now);
            // Each placement reads about log2(entries) keys at random; past half a read per entry a sort of everything is cheaper.
            int probesPerRow = Long.SIZE - Long.numberOfLeadingZeros(entryCount);
            if (appended > entryCount / 2 / probesPerRow) {
                sorter.close();
                sortRows(options, workers, maximumWorkers, sessionLimit, null);
                return;
            }
            if (appended > 0) {
                try (SortedOutput sorted = sorter.finish()) {
                    mergeAppended(storage, sorted, appended);
                }
            }
        }
        covered = now;
        builtChangeSequence = now.sequence();
        // A compaction meanwhile (only possible when no scan holds row ids) leaves the index stale, never wrongly current.
        builtRelocations = relocationsAtStart;
    }

    /**
     * Feeds the rows {@code now} sees that {@code before} did not (appended since: the rest of
     * {@code before}'s last page and the pages after it) to {@code sorter}; returns how many.
     */
    private long sortAppended(TableStorage storage, Sorter sorter, ScanSnapshot before, ScanSnapshot now) {
        Batch page = Batch.create(sortTypes(), Batch.DEFAULT_CAPACITY);
        int rowIdColumn = keyColumns.length;
        int[] slots = new int[storage.pageSlotCapacity()];
        int[] selection = new int[storage.pageSlotCapacity()];
        int firstPage = Math.max(0, before.pageCount() - 1);
        long appended = 0;
        for (int pageIndex = firstPage; pageIndex < now.pageCount(); pageIndex++) {
            int rows = storage.readPage(pageIndex, keyColumns, page, now, slots);
            int firstSlot = pageIndex == before.pageCount() - 1 ? before.lastPageSlots() : 0;
            int first = 0;
            while (first < rows && slots[first] < firstSlot) {
                first++; // indexed already (slots come in ascending order)
            }
            if (first == rows) {
                continue;
            }
            fillRowIds(page, rowIdColumn, pageIndex, slots, rows);
            if (first > 0) {
                for (int row = first; row < rows; row++) {
                    selection[row - first] = row;
                }
                page.setSelection(selection, rows - first);
            }
            sorter.add(page);
            appended += rows - first;
        }
        return appended;
    }

    /**
     * Places the {@code appended} sorted (keys, row id) rows of {@code sorted} into the existing
     * order. Their places are found by binary searches run side by side, one level at a time: each
     * level reads the probed entries' keys of all the rows still searching in one
     * {@link TableStorage#readRows} call (one call per row and level cost ~20 single-row reads per
     * new row: 97 ms for 1,000 new rows into 10M, IndexMaintenanceBenchmark), and since the rows
     * are sorted, each row's range is narrowed by its neighbours'. Nothing changes until every
     * place is known. Then the entries move: in place from the back when the array has room
     * (it is given a sixteenth of slack whenever a merge reallocates it, so later small merges
     * neither allocate nor copy the entries before the first place), else into a new array.
     */
    private void mergeAppended(TableStorage storage, SortedOutput sorted, long appended) {
        int rowIdColumn = keyColumns.length;
        List<DataType> sortTypes = sortTypes();
        List<DataType> keyTypes = sortTypes.subList(0, rowIdColumn);
        BatchRowComparator keyOrder = new BatchRowComparator(sortKeys().subList(0, rowIdColumn), keyTypes);
        int count = Math.toIntExact(appended);
        Batch rows = Batch.create(sortTypes, count);
        int rowCount = 0;
        Batch batch;
        while ((batch = sorted.next()) != null) {
            BatchCopier.appendLiveRows(batch, rows, rowCount);
            rowCount += batch.selectedCount();
        }
        rows.setRowCount(rowCount);
        long[] ids = ((LongVector) rows.column(rowIdColumn)).values();
        long[] places = placesOf(storage, rows, rowCount, ids, keyTypes, keyOrder);
        long capacity = rowIds.byteSize() / Long.BYTES;
        if (entryCount + rowCount <= capacity) {
            long target = entryCount + rowCount;
            long sourceEnd = entryCount;
            for (int row = rowCount - 1; row >= 0; row--) {
                long moved = sourceEnd - places[row];
                target -= moved;
                MemorySegment.copy(rowIds, places[row] * Long.BYTES, rowIds, target * Long.BYTES, moved * Long.BYTES);
                sourceEnd = places[row];
                rowIds.setAtIndex(ValueLayout.JAVA_LONG, --target, ids[row]);
            }
            entryCount += rowCount;
            appendMerges++;
            return;
        }
        Arena newArena = Arena.ofShared();
        try {
            long entries = entryCount + rowCount;
            MemorySegment merged = newArena.allocate(Math.max(1, entries + entries / 16) * Long.BYTES, Long.BYTES);
            long copied = 0;
            long written = 0;
            for (int row = 0; row < rowCount; row++) {
                long place = places[row];
                MemorySegment.copy(rowIds, copied * Long.BYTES, merged, written * Long.BYTES, (place - copied) * Long.BYTES);
                written += place - copied;
                copied = place;
                merged.setAtIndex(ValueLayout.JAVA_LONG, written++, ids[row]);
            }
            MemorySegment.copy(rowIds, copied * Long.BYTES, merged, written * Long.BYTES, (entryCount - copied) * Long.BYTES);
            written += entryCount - copied;
            arena.close();
            arena = newArena;
            rowIds = merged;
            entryCount = written;
            appendMerges++;
        } catch (RuntimeException | Error failure) {
            newArena.close();
            throw failure;
        }
    }

    /**
     * For each of the sorted {@code rows} (keys, then row id {@code ids[row]}), how many entries
     * come before it: the place it takes. Non-decreasing, since the rows are in order.
     */
    private long[] placesOf(TableStorage storage, Batch rows, int rowCount, long[] ids, List<DataType> keyTypes, BatchRowComparator keyOrder) {
        long[] low = new long[rowCount];
        long[] high = new long[rowCount];
        Arrays.fill(high, entryCount);
        int[] searching = new int[rowCount];
        long[] probeIds = new long[rowCount];
        Batch probes = Batch.create(keyTypes, Math.max(1, rowCount));
        while (true) {
            int probeCount = 0;
            for (int row = 0; row < rowCount; row++) {
                if (low[row] < high[row]) {
                    searching[probeCount] = row;
                    probeIds[probeCount] = rowIds.getAtIndex(ValueLayout.JAVA_LONG, (low[row] + high[row]) >>> 1);
                    probeCount++;
                }
            }
            if (probeCount == 0) {
                return low;
            }
            int read = storage.readRows(probeIds, 0, probeCount, keyColumns, probes);
            if (read != probeCount) {
                throw new IllegalStateException("index " + name + ": read " + read + " of " + probeCount + " probed rows");
            }
            for (int probe = 0; probe < probeCount; probe++) {
                int row = searching[probe];
                long middle = (low[row] + high[row]) >>> 1;
                int order = keyOrder.compare(probes, probe, rows, row);
                if (order == 0) {
                    order = Long.compare(probeIds[probe], ids[row]);
                }
                if (order > 0) {
                    high[row] = middle;
                } else {
                    low[row] = middle + 1;
                }
            }
            // A row's place is at least its predecessor's and at most its successor's.
            for (int row = 1; row < rowCount; row++) {
                low[row] = Math.max(low[row], low[row - 1]);
            }
            for (int row = rowCount - 2; row >= 0; row--) {
                high[row] = Math.min(high[row], high[row + 1]);
            }
        }
    }

    /** Feeds the rows {@code snapshot} sees on pages {@code [first, end)} as (keys, row id) rows to {@code sorter} and returns its sorted output. */
    private SortedOutput sortPages(TableStorage storage, ScanSnapshot snapshot, Sorter sorter, List<DataType> sortTypes, int first, int end,
                                   BuildProgress progress) {
        Batch page = Batch.create(sortTypes, Batch.DEFAULT_CAPACITY);
        int rowIdColumn = keyColumns.length;
        int[] slots = new int[storage.pageSlotCapacity()];
        for (int pageIndex = first; pageIndex < end; pageIndex++) {
            // readPage fills the key columns and the live rows' slots; the trailing row id column is ours to fill.
            int rows = storage.readPage(pageIndex, keyColumns, page, snapshot, slots);
            fillRowIds(page, rowIdColumn, pageIndex, slots, rows);
            sorter.add(page);
            progress.pageScanned();
        }
        return sorter.finish();
    }

    private void replaceRowIds(SortedOutput sorted, int rowIdColumn, long expectedRows, BuildProgress progress) {
        Arena newArena = Arena.ofShared();
        try {
            MemorySegment newRowIds = newArena.allocate(Math.max(1, expectedRows) * Long.BYTES, Long.BYTES);
            long count = 0;
            Batch batch;
            while ((batch = sorted.next()) != null) {
                long[] ids = ((LongVector) batch.column(rowIdColumn)).values();
                int live = batch.selectedCount();
                if (count + live > expectedRows) {
                    // Rows appended between reading the row count and the pages: grow to hold them.
                    newRowIds = grow(newArena, newRowIds, count, count + live);
                    expectedRows = count + live;
                }
                if (batch.selection() == null) {
                    MemorySegment.copy(ids, 0, newRowIds, ValueLayout.JAVA_LONG, count * Long.BYTES, live);
                } else {
                    for (int index = 0; index < live; index++) {
                        newRowIds.setAtIndex(ValueLayout.JAVA_LONG, count + index, ids[batch.position(index)]);
                    }
                }
                count += live;
                progress.entriesLoaded(count);
            }
            if (arena != null) {
                arena.close();
            }
            arena = newArena;
            rowIds = newRowIds;
            entryCount = count;
        } catch (RuntimeException | Error failure) {
            newArena.close();
            throw failure;
        }
    }

    private static MemorySegment grow(Arena arena, MemorySegment segment, long used, long needed) {
        MemorySegment larger = arena.allocate(Math.max(needed, segment.byteSize() / Long.BYTES * 2) * Long.BYTES, Long.BYTES);
        MemorySegment.copy(segment, 0, larger, 0, used * Long.BYTES);
        return larger;
    }

    /**
     * The build's report to its statement (none when built without one): pages scanned by all
     * participants together, then entries loaded into the index, checking for cancellation as it goes.
     */
    private static final class BuildProgress {
        private static final String SCANNING = "building index: scanning table";
        private static final String LOADING = "building index: loading tuples in tree";

        private final ExecutionContext statement;
        private final long pageCount;
        private final long expectedEntries;
        private final AtomicLong pagesScanned = new AtomicLong();

        BuildProgress(ExecutionContext statement, long pageCount, long expectedEntries) {
            this.statement = statement;
            this.pageCount = pageCount;
            this.expectedEntries = expectedEntries;
            if (statement != null) {
                statement.progress().update(SCANNING, 0, pageCount, "pages");
            }
        }

        void pageScanned() {
            if (statement != null) {
                statement.checkCancelled();
                statement.progress().update(SCANNING, pagesScanned.incrementAndGet(), pageCount, "pages");
            }
        }

        void entriesLoaded(long entries) {
            if (statement != null) {
                statement.checkCancelled();
                statement.progress().update(LOADING, entries, Math.max(entries, expectedEntries), "rows");
            }
        }
    }

    /** Fills the page batch's trailing row id column with the row ids of the {@code rows} slots readPage returned. */
    private static void fillRowIds(Batch page, int rowIdColumn, int pageIndex, int[] slots, int rows) {
        LongVector rowIds = (LongVector) page.column(rowIdColumn);
        rowIds.ensureCapacity(rows);
        long[] ids = rowIds.values();
        long pageBase = RowIds.pack(pageIndex, 0);
        for (int row = 0; row < rows; row++) {
            ids[row] = pageBase | slots[row];
        }
    }
}
