package dev.parallax.engine.storage;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.NativePage;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

import static dev.parallax.engine.storage.PageLayout.STORAGE_BYTE;
import static dev.parallax.engine.storage.PageLayout.STORAGE_DOUBLE;
import static dev.parallax.engine.storage.PageLayout.STORAGE_FLOAT;
import static dev.parallax.engine.storage.PageLayout.STORAGE_INT;
import static dev.parallax.engine.storage.PageLayout.STORAGE_LONG;
import static dev.parallax.engine.storage.PageLayout.STORAGE_SHORT;
import static dev.parallax.engine.storage.PageLayout.STORAGE_VARIABLE;

/**
 * A table partition in off-heap PAX pages ({@link PageLayout}) taken from a {@link PageAllocator}.
 * <p>
 * Writers ({@link #append}, {@link #delete}) serialize on the storage; readers never block, but for
 * a snapshot taken while a statement publishes to several tables together ({@link #publishTogether}),
 * which waits for those publishes (a few stores per page). An
 * append writes its rows beyond each page's published row count and publishes all the new counts
 * only once every row is written, so a reader sees all of an append or none of it on each page,
 * and a failed append leaves nothing visible and frees the pages it took.
 *
 * <p>VACUUM ({@link #compactPage}) replaces a page with dead rows by a compacted copy under the
 * same page index, or by a hole once no row is left (trailing holes shorten the table).
 * Readers that fetched the old page finish on it: every read registers in the current read epoch
 * for the length of one page ({@link #readPage}, {@link #readRows}), and a replaced page is only
 * freed by {@link #reclaimRetiredPages} once the epoch it was retired in has no reader left (an
 * RCU grace period). Readers never wait; the vacuum waits at most for the reads of single pages.
 *
 * <p>Scans register their snapshots ({@link #openSnapshot}, {@link #openScan}) for as long as they
 * run, and VACUUM leaves alone what an open snapshot may still read: dead rows younger than the
 * oldest open snapshot (PostgreSQL's xmin horizon), the partly covered last page of a snapshot,
 * and the page indexes a snapshot covers (the table is not shortened below them).
 */
public final class PagedTableStorage extends AppendFields implements TableStorage {
    /** Rows whose value lengths {@link #rowsThatFit} sums at a time before checking the page's free heap. */
    private static final int FIT_BLOCK_ROWS = 256;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    /** (segment, offset) access to the row count with release/acquire ordering. */
    private static final VarHandle ROW_COUNT = ValueLayout.JAVA_INT.varHandle();
    /**
     * (segment, offset) access to a word of the dead-slot bitmap: a death sets its bit with release
     * semantics after writing the slot's stamp and the page's newest death; readers load the word
     * with acquire semantics (see {@link PageLayout}).
     */
    private static final VarHandle DEAD_WORD = ValueLayout.JAVA_LONG.varHandle();
    /** Release/acquire access to the elements of {@link #pages}: VACUUM swaps pages under readers. */
    private static final VarHandle PAGE_SLOT = MethodHandles.arrayElementVarHandle(NativePage[].class);
    /** Release/acquire access to the elements of {@link #pageAddresses}, written next to {@link #PAGE_SLOT}'s. */
    private static final VarHandle ADDRESS_SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * The whole address space, through which {@link #readPublishedRow} reads a page by its address
     * ({@link #pageAddresses}): a page is then one array element away from its row id instead of
     * three dependent heap loads (the NativePage, its MemorySegment, the segment's scope), each a
     * cache miss at random over thousands of pages. Safe because a page is only freed once no
     * registered reader can still hold its address ({@link #reclaimRetiredPages}, {@link #close}),
     * and the row is checked against the page's published row count first.
     */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final long[] NO_ROW_IDS = new long[0];
    private static final int CACHE_LINE_BYTES = 64;

    /** Atomic updates of {@link #evenEpochReaders} and {@link #oddEpochReaders}. */
    private static final VarHandle EVEN_EPOCH_READERS;
    private static final VarHandle ODD_EPOCH_READERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EVEN_EPOCH_READERS = lookup.findVarHandle(PointReadFields.class, "evenEpochReaders", long.class);
            ODD_EPOCH_READERS = lookup.findVarHandle(PointReadFields.class, "oddEpochReaders", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final List<DataType> columnTypes;
    private final PageAllocator allocator;
    /**
     * The write lock: the storage's own monitor, whose header shares the first cache line with the
     * fields every read and write checks ({@link PointReadFields}); a lock object of its own was one
     * more cache miss per write when each write lands on another partition (an upsert into 1024 hash
     * partitions), and so was a field naming it. Nothing else synchronizes on a storage.
     */
    private Object writeLock() {
        return this;
    }

    /**
     * Counts the starts and ends of publishes this table takes part in together with other tables
     * (odd while one is under way): see {@link #holdSnapshots()}.
     */
    private volatile long groupSequence;

    /** Deleted row slots not yet reclaimed by VACUUM. */
    private volatile long deadRowCount;
    /**
     * Held by {@link #reclaimRetiredPages} and {@link #recycleRetiredPages} for their two epoch
     * flips and the checks that follow each: a flip by another reclaimer in between could make one
     * check the same parity twice and miss a reader still holding a retired page.
     */
    private final ReentrantLock reclaimLock = new ReentrantLock();
    /** Pages replaced by VACUUM that readers may still be reading; freed by {@link #reclaimRetiredPages}. */
    private final List<NativePage> retiredPages = new ArrayList<>();
    /** Open snapshots; its monitor is taken before {@link #writeLock()} by VACUUM, never after. */
    private final SnapshotRegistry openSnapshots = new SnapshotRegistry();

    public PagedTableStorage(List<DataType> columnTypes, PageAllocator allocator) {
        this(List.copyOf(columnTypes), allocator, PageLayout.forColumns(columnTypes, allocator.pageSizeBytes()));
    }

    private PagedTableStorage(List<DataType> columnTypes, PageAllocator allocator, PageLayout layout) {
        super(layout, columnTypes.size());
        this.columnTypes = columnTypes;
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    /**
     * A new empty storage with this one's column types, allocator and page layout: for another
     * partition of the same table. The partitions then share one (immutable) layout object instead
     * of 1024 copies, which keeps the layout in cache when each write lands on another partition.
     */
    public PagedTableStorage emptySibling() {
        return new PagedTableStorage(columnTypes, allocator, layout);
    }

    @Override
    public List<DataType> columnTypes() {
        return columnTypes;
    }

    public PageLayout layout() {
        return layout;
    }

    @Override
    public int pageCount() {
        return pageCount;
    }

    @Override
    public long rowCount() {
        return liveRowCount;
    }

    /** Deleted row slots that VACUUM has not reclaimed yet (PostgreSQL's n_dead_tup). */
    public long deadRowCount() {
        return deadRowCount;
    }

    /** Bytes of the pages this table holds (holes left by VACUUM hold none). */
    @Override
    public long sizeBytes() {
        NativePage[] pageArray = pages;
        int count = pageCount;
        long held = 0;
        for (int index = 0; index < count; index++) {
            if (PAGE_SLOT.getAcquire(pageArray, index) != null) {
                held++;
            }
        }
        return held * layout.pageSizeBytes();
    }

    // ---------------------------------------------------------------------------------------------
    // Writing

    @Override
    public void append(Batch batch) {
        appendAll(List.of(batch));
    }

    /** All batches in one all-or-nothing step, without first copying them into one batch. */
    @Override
    public void appendAll(List<Batch> batches) {
        appendAll(batches, null);
    }

    /**
     * Like {@link #appendAll(List)}, but once every row is written and before any becomes visible,
     * calls {@code guard} (when not null) with each row's id ({@code RowIds.pack(page, slot)}); when
     * the guard throws, the append is abandoned: nothing becomes visible and the new pages are freed.
     * The guard runs under the storage's write lock, so guarded appends of one table are serialized.
     */
    public void appendAll(List<Batch> batches, AppendGuard guard) {
        modify(batches, NO_ROW_IDS, 0, guard);
    }

    /**
     * Replaces row versions in one step: appends the live rows of {@code batches} (invisible at
     * first), calls {@code guard} (when not null) with their row ids, and then publishes at once the
     * new rows and the death of the rows {@code deadRowIds[0 .. deadCount)}, which stay in their
     * pages (dead slots, counted per page and per table) until VACUUM reclaims them. A scan that
     * started before sees the old versions only, one that starts after the new ones only.
     * <p>
     * Returns false, changing nothing, when one of the rows to kill is already dead: another
     * statement replaced or deleted it since the caller read it, and the caller reads again. A
     * throwing guard abandons the step, as in {@link #appendAll(List, AppendGuard)}. The row ids to
     * kill must be distinct. Runs under the storage's write lock. A step abandoned after its rows
     * were placed counts in {@link #abandonedSteps()}; a step that went through calls the guard's
     * {@link AppendGuard#published()} after its publish.
     */
    public boolean modify(List<Batch> batches, long[] deadRowIds, int deadCount, AppendGuard guard) {
        return modify(batches, deadRowIds, deadCount, guard, null);
    }

    /** {@link #modify(List, long[], int, AppendGuard)} with the caller's bookkeeping set ({@link AppendScratch#create}; null: the thread's). */
    public boolean modify(List<Batch> batches, long[] deadRowIds, int deadCount, AppendGuard guard, AppendScratch ownScratch) {
        long liveRows = 0;
        // Indexed loops over the (immutable) lists: their iterators were allocated per statement.
        for (int batchIndex = 0; batchIndex < batches.size(); batchIndex++) {
            Batch batch = batches.get(batchIndex);
            if (batch.columnCount() != columnCount) {
                throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, table has " + columnCount);
            }
            liveRows += batch.selectedCount();
        }
        if (liveRows == 0 && deadCount == 0) {
            return true;
        }
        synchronized (writeLock()) {
            ensureOpen();
            for (int index = 0; index < deadCount; index++) {
                if (isDead(deadRowIds[index])) {
                    return false;
                }
            }
            if (liveRows == 0) {
                if (guard != null) {
                    try {
                        guard.rowsPlaced(batches, guard.rowIdArrays(batches.size()));
                    } catch (RuntimeException | Error failure) {
                        abandonedSteps = abandonedSteps + 1;
                        throw failure;
                    }
                }
                beginPublish();
                killRows(deadRowIds, deadCount);
                endPublish(0, deadCount);
                if (guard != null) {
                    guard.published();
                }
                return true;
            }
            int oldPageCount = pageCount;
            NativePage[] pageArray = pages;
            boolean knownTail = tailPageIndex >= 0 && tailPageIndex == oldPageCount - 1 && tailRelocations == relocations;
            // VACUUM may leave the last page a hole (a scan still covers its index): start after it.
            boolean freshPage = !knownTail && (oldPageCount == 0 || pageArray[oldPageCount - 1] == null);
            int touchedCount = 0;
            AppendScratch scratch = AppendScratch.take(ownScratch);
            try {
                int[] heapBytes = scratch.heapBytes(columnCount);
                int pagesEnd = oldPageCount;
                // The existing last page appended to (0 when starting on a new page), and its clean mark.
                long existingPage = 0;
                int existingCleanFrom = 0;
                try {
                    // Pages are written by address through MEMORY (see tailPage).
                    long page;
                    int pageRows;
                    int heapStart;
                    int[] nullCounts;
                    int cleanFrom;
                    if (freshPage) {
                        pageArray = addPage(pageArray, pagesEnd);
                        page = pageArray[pagesEnd++].segment().address();
                        pageRows = 0;
                        heapStart = layout.pageSizeBytes();
                        nullCounts = new int[columnCount];
                        cleanFrom = 0;
                    } else if (knownTail) {
                        page = tailPage;
                        pageRows = tailRows;
                        heapStart = tailHeapStart;
                        // Copied only when a row brings a NULL: the counts are never changed in place.
                        nullCounts = hasNulls(batches) ? tailNullCounts.clone() : tailNullCounts;
                        cleanFrom = tailCleanFrom;
                        loadAppendLines(page, pageRows, heapStart, scratch.appendLines);
                    } else {
                        MemorySegment last = pageArray[oldPageCount - 1].segment();
                        page = last.address();
                        pageRows = last.get(INT, PageLayout.ROW_COUNT_OFFSET);
                        heapStart = last.get(INT, PageLayout.HEAP_START_OFFSET);
                        nullCounts = readNullCounts(last);
                        cleanFrom = last.get(INT, PageLayout.CLEAN_FROM_OFFSET);
                    }
                    if (!freshPage) {
                        existingPage = page;
                        existingCleanFrom = cleanFrom;
                    }
                    int currentPage = pagesEnd - 1;
                    long[][] rowIds = guard == null ? null : guard.rowIdArrays(batches.size());
                    for (int batchIndex = 0; batchIndex < batches.size(); batchIndex++) {
                        Batch batch = batches.get(batchIndex);
                        int batchRows = batch.selectedCount();
                        long[] batchRowIds = null;
                        if (rowIds != null) {
                            batchRowIds = guard.rowIdArray(batchIndex, batch.rowCount());
                            rowIds[batchIndex] = batchRowIds;
                        }
                        int row = 0;
                        while (row < batchRows) {
                            int fit = rowsThatFit(batch, row, batchRows, pageRows, heapStart, heapBytes);
                            if (fit == 0) {
                                if (pageRows == 0) {
                                    throw rowTooBig(batch, row);
                                }
                                scratch.setTouched(touchedCount++, page, pageRows, heapStart, nullCounts);
                                pageArray = addPage(pageArray, pagesEnd);
                                page = pageArray[pagesEnd].segment().address();
                                currentPage = pagesEnd;
                                pagesEnd++;
                                pageRows = 0;
                                heapStart = layout.pageSizeBytes();
                                nullCounts = new int[columnCount];
                                cleanFrom = 0;
                                continue;
                            }
                            heapStart = writeRows(MEMORY, page, batch, row, fit, pageRows, heapStart, nullCounts, heapBytes, cleanFrom);
                            if (batchRowIds != null) {
                                for (int index = 0; index < fit; index++) {
                                    batchRowIds[batch.position(row + index)] = RowIds.pack(currentPage, pageRows + index);
                                }
                            }
                            pageRows += fit;
                            row += fit;
                        }
                    }
                    scratch.setTouched(touchedCount++, page, pageRows, heapStart, nullCounts);
                    if (guard != null) {
                        guard.rowsPlaced(batches, rowIds);
                    }
                } catch (RuntimeException | Error failure) {
                    if (existingPage != 0) {
                        // The abandoned rows may have set null bits past the published rows of the page kept.
                        MEMORY.set(INT, existingPage + PageLayout.CLEAN_FROM_OFFSET, layout.rowsPerPage());
                        tailPageIndex = -1;
                    }
                    long[] addresses = pageAddresses;
                    for (int index = oldPageCount; index < pagesEnd; index++) {
                        if (pageArray[index] != null) {
                            // Beyond the published page count: no reader can have taken these pages.
                            allocator.free(pageArray[index]);
                            pageArray[index] = null;
                            addresses[index] = 0;
                        }
                    }
                    // The guard may have entered (and since removed) index entries naming the slots just
                    // freed for reuse: lock-free readers holding such a row id must look again.
                    abandonedSteps = abandonedSteps + 1;
                    throw failure;
                }
                // Publish: headers first, each row count last with release semantics, then the page count.
                beginPublish();
                killRows(deadRowIds, deadCount);
                for (int touched = 0; touched < touchedCount; touched++) {
                    long page = scratch.touchedPages[touched];
                    MEMORY.set(INT, page + PageLayout.HEAP_START_OFFSET, scratch.newHeapStarts[touched]);
                    int[] nullCounts = scratch.newNullCounts[touched];
                    // An append without NULLs onto the known tail kept its counts (the same array): nothing to write.
                    if (touched != 0 || !knownTail || nullCounts != tailNullCounts) {
                        for (int column = 0; column < columnCount; column++) {
                            MEMORY.set(INT, page + layout.nullCountOffset(column), nullCounts[column]);
                        }
                    }
                    ROW_COUNT.setRelease(MEMORY, page + PageLayout.ROW_COUNT_OFFSET, scratch.newRowCounts[touched]);
                }
                if (pagesEnd != oldPageCount) {
                    pageCount = pagesEnd;
                }
                int last = touchedCount - 1;
                tailPageIndex = pagesEnd - 1;
                tailRelocations = relocations;
                tailPage = scratch.touchedPages[last];
                tailRows = scratch.newRowCounts[last];
                tailHeapStart = scratch.newHeapStarts[last];
                tailNullCounts = scratch.newNullCounts[last];
                tailCleanFrom = last == 0 && existingPage != 0 ? existingCleanFrom : 0;
            } finally {
                scratch.giveBack(touchedCount);
            }
            endPublish(liveRows, deadCount);
            if (hugePagesWanted) {
                offerNewPagesForHugePages();
            }
            if (guard != null) {
                guard.published();
            }
            return true;
        }
    }

    /**
     * Rows to be written outside the write lock into pages of their own and published later, all
     * at once, by {@link #publishStaged}: see {@link StagedPages}. For tables without unique
     * constraints (their keys need the rows' final ids before publishing: {@link #appendAll(List, AppendGuard)}).
     */
    public StagedPages stage() {
        ensureOpen();
        return new StagedPages(this);
    }

    /**
     * Publishes the rows of {@code stages} (staged by {@link #stage()} of this storage) in one step,
     * after the table's rows, in the order of the list: a scan that starts before sees none of
     * them, one that starts after sees all of them. Their pages then belong to the table; a stage
     * already published or closed is an error, and nothing is published when this throws (the
     * caller still closes the stages, which frees their pages). Runs under the write lock for a few
     * stores per page.
     */
    public void publishStaged(List<StagedPages> stages) {
        for (StagedPages stage : stages) {
            if (stage.storage() != this || stage.handedOver()) {
                throw new IllegalArgumentException("staged pages of another table, or already published or closed");
            }
        }
        synchronized (writeLock()) {
            ensureOpen();
            long rows = 0;
            int added = 0;
            for (StagedPages stage : stages) {
                rows += stage.rowCount();
                added += stage.pageCount();
            }
            if (rows == 0) {
                for (StagedPages stage : stages) {
                    stage.close();
                }
                return;
            }
            NativePage[] pageArray = pages;
            long[] addresses = pageAddresses;
            int oldPageCount = pageCount;
            if (oldPageCount + added > pageArray.length) {
                pageArray = Arrays.copyOf(pageArray, Math.max(pageArray.length * 2, oldPageCount + added));
                addresses = Arrays.copyOf(addresses, pageArray.length);
                pageAddresses = addresses;
                pages = pageArray;
            }
            // Headers first, each row count last with release semantics, then the page count: the
            // pages are nobody else's until the page count covers them.
            beginPublish();
            int index = oldPageCount;
            NativePage lastPage = null;
            int lastRows = 0;
            int lastHeapStart = 0;
            int lastCleanFrom = 0;
            int[] lastNullCounts = null;
            for (StagedPages stage : stages) {
                List<NativePage> stagedPages = stage.pagesForPublish();
                for (int staged = 0; staged < stagedPages.size(); staged++) {
                    NativePage page = stagedPages.get(staged);
                    MemorySegment segment = page.segment();
                    int[] nullCounts = stage.nullCountsOfPage(staged);
                    segment.set(INT, PageLayout.HEAP_START_OFFSET, stage.heapStartOfPage(staged));
                    for (int column = 0; column < columnCount; column++) {
                        segment.set(INT, layout.nullCountOffset(column), nullCounts[column]);
                    }
                    ROW_COUNT.setRelease(segment, PageLayout.ROW_COUNT_OFFSET, stage.rowCountOfPage(staged));
                    ADDRESS_SLOT.setRelease(addresses, index, segment.address());
                    PAGE_SLOT.setRelease(pageArray, index++, page);
                    lastPage = page;
                    lastRows = stage.rowCountOfPage(staged);
                    lastHeapStart = stage.heapStartOfPage(staged);
                    lastCleanFrom = stage.cleanFromOfPage(staged);
                    lastNullCounts = nullCounts;
                }
                stage.markPublished();
            }
            pageCount = index;
            tailPageIndex = index - 1;
            tailRelocations = relocations;
            tailPage = lastPage.segment().address();
            tailRows = lastRows;
            tailHeapStart = lastHeapStart;
            tailNullCounts = lastNullCounts;
            tailCleanFrom = lastCleanFrom;
            endPublish(rows, 0);
            if (hugePagesWanted) {
                offerNewPagesForHugePages();
            }
        }
    }

    /**
     * A page for {@link StagedPages} with an empty header; the rest holds zeros only when the page
     * is fresh ({@link NativePage#heldOldBytes()}), else its previous owner's bytes.
     */
    NativePage allocatePageForOverwrite() {
        NativePage page = allocator.allocateForOverwrite();
        MemorySegment segment = page.segment();
        if (page.heldOldBytes()) {
            segment.asSlice(0, layout.deletionStampsOffset()).fill((byte) 0);
            segment.set(INT, PageLayout.CLEAN_FROM_OFFSET, layout.rowsPerPage());
        }
        segment.set(INT, PageLayout.HEAP_START_OFFSET, layout.pageSizeBytes());
        return page;
    }

    void freePage(NativePage page) {
        allocator.free(page);
    }

    /**
     * Runs {@code action} holding the storage's write lock, so that no other writer changes the
     * table meanwhile ({@link #modify} and appends called inside it take the lock again, which is
     * reentrant). For writers that failed to apply optimistically and must make progress; readers
     * are not blocked.
     */
    public <T> T exclusively(java.util.function.Supplier<T> action) {
        synchronized (writeLock()) {
            ensureOpen();
            return action.get();
        }
    }

    /**
     * Runs {@code action} while no scan of this table is open and none may open, and no other writer
     * may write: PostgreSQL's ACCESS EXCLUSIVE lock, as ALTER TABLE takes it. Waits up to
     * {@code waitMillis} for the open snapshots to close (scans opening meanwhile wait, as requests
     * queue behind the lock) and returns false without running {@code action} when one is still
     * open then; the caller lets go of any other table it holds and retries, as VACUUM FULL does, so
     * a statement that holds a snapshot while it waits for a write lock is never deadlocked.
     */
    public boolean exclusivelyWithoutScans(long waitMillis, Runnable action) {
        synchronized (openSnapshots) {
            if (!openSnapshots.awaitNoneOpen(waitMillis)) {
                return false;
            }
            synchronized (writeLock()) {
                ensureOpen();
                action.run();
                return true;
            }
        }
    }

    /**
     * {@inheritDoc} Only marks slabs ({@link PageAllocator#preferHugePages}): the copies run on a
     * background thread, and only for slabs whose pages are all handed out, so a bulk load in
     * progress keeps faulting in ordinary pages, the cheap way.
     */
    @Override
    public void preferHugePages() {
        synchronized (writeLock()) {
            if (!closed) {
                hugePagesWanted = true;
                offerNewPagesForHugePages();
            }
        }
    }

    /** Names the pages added since the last call to the allocator; under the write lock. */
    private void offerNewPagesForHugePages() {
        int count = pageCount;
        // VACUUM may have dropped trailing pages since: their indexes are offered again when reused.
        int from = Math.min(hugePagesOfferedTo, count);
        if (from < count) {
            allocator.preferHugePages(pages, from, count);
        }
        hugePagesOfferedTo = count;
    }

    /**
     * How many cache line addresses {@link #appendLineAddresses} and {@link #prefetchAppendLines}
     * name: the header, the value (or offset and length) of three columns and the heap's two lines
     * below its start fit; the lines of further columns are left out (best effort).
     */
    public static final int APPEND_LINES = 8;

    /**
     * Writes into {@code out[from .. from + APPEND_LINES)} the addresses of the cache lines that the
     * next one-row append writes ({@link #appendLines}), for {@link
     * dev.parallax.engine.memory.CacheLinePrefetch}: read without the write lock and without
     * registering as a reader, so they may be stale, or name a page freed meanwhile, by the time
     * they are used; only a prefetch, which never faults, may use them. Zeros when no tail page has
     * room. Cheap right after an append to this storage, when its fields are in the cache.
     */
    public void appendLineAddresses(long[] out, int from) {
        int slot = tailRows;
        int heapStart = tailHeapStart;
        long page = tailPageIndex >= 0 && tailPageIndex == pageCount - 1 && heapStart <= layout.pageSizeBytes() ? tailPage : 0;
        if (page == 0) {
            Arrays.fill(out, from, from + APPEND_LINES, 0L);
        } else {
            appendLines(page, slot, heapStart, out, from);
        }
    }

    /**
     * Loads, without the write lock, the cache lines of the tail page that the next one-row append
     * writes ({@link #appendLines}; {@code scratch} holds their addresses, {@link #APPEND_LINES}
     * long), registered as a page reader the way {@link #readPublishedRow} is, so the page cannot
     * be freed meanwhile. For a writer that lands on another of many partitions each time (a
     * prepared upsert) where {@link dev.parallax.engine.memory.CacheLinePrefetch} is unavailable:
     * called before its index lookup, these misses overlap with the lookup's instead of following
     * it under the write lock. The tail's slot and heap start are read without the lock and only
     * bound the lines loaded.
     */
    public void prefetchAppendLines(long[] scratch) {
        int epochSlot = enterRead();
        try {
            int pageIndex = pageCount - 1;
            int slot = tailRows;
            int heapStart = tailHeapStart;
            if (pageIndex < 0 || tailPageIndex != pageIndex || heapStart > layout.pageSizeBytes()) {
                return;
            }
            // Read after the page count: the array in use when that count was published, or a later one.
            long page = (long) ADDRESS_SLOT.getAcquire(pageAddresses, pageIndex);
            if (page != 0) {
                loadAppendLines(page, slot, heapStart, scratch);
            }
        } finally {
            exitRead(epochSlot);
        }
    }

    /**
     * Loads from every line {@link #appendLines} names, all before any is written, so that their
     * misses overlap ({@code lines} receives the addresses).
     */
    private void loadAppendLines(long page, int slot, int heapStart, long[] lines) {
        appendLines(page, slot, heapStart, lines, 0);
        long sum = 0;
        for (int line = 0; line < APPEND_LINES; line++) {
            // The aligned long around the address: the same line (see keep on why not a byte).
            sum += MEMORY.get(LONG, lines[line] & -8L);
        }
        keep(sum);
    }

    /**
     * Writes into {@code out[from .. from + APPEND_LINES)} the address of every cache line that
     * appending a row at slot {@code slot} of the page at address {@code page} (heap from {@code
     * heapStart} down) writes: the header (published last), each column's value, or offset and
     * length, and the heap just below {@code heapStart} (a value of up to 64 bytes lies within its
     * two lines); the header's address repeated past the last. A NULL's bit in the page's null
     * bitmap is not named (a line per column more, for rows that are mostly without NULLs). When
     * each append lands on another partition's tail page (an upsert into 1024 hash partitions) these
     * lines are cold, and the stores otherwise waited for them in two rounds, the values at the first
     * atomic operation that followed (the index's lock) and the header at the publish's fence.
     */
    private void appendLines(long page, int slot, int heapStart, long[] out, int from) {
        int end = from + APPEND_LINES;
        int next = from;
        out[next++] = page + PageLayout.ROW_COUNT_OFFSET;
        if (slot >= layout.rowsPerPage()) {
            // The page is full: the append starts a new one and reads only this header.
            Arrays.fill(out, next, end, page + PageLayout.ROW_COUNT_OFFSET);
            return;
        }
        for (int column = 0; column < columnCount && next < end; column++) {
            long data = page + layout.dataOffset(column);
            if (layout.storageKind(column) == STORAGE_VARIABLE) {
                out[next++] = data + 4L * slot;
                if (next < end) {
                    out[next++] = page + layout.lengthsOffset(column) + 4L * slot;
                }
            } else {
                out[next++] = data + (long) layout.width(column) * slot;
            }
        }
        if (layout.hasVariableColumns() && heapStart - CACHE_LINE_BYTES >= layout.fixedAreaEnd()) {
            if (next < end) {
                out[next++] = page + heapStart - 1;
            }
            if (next < end) {
                out[next++] = page + heapStart - CACHE_LINE_BYTES;
            }
        }
        Arrays.fill(out, next, end, page + PageLayout.ROW_COUNT_OFFSET);
    }

    /** Written only if {@link #keep} is handed its one value out of 2^64 (never read). */
    @SuppressWarnings("unused")
    private static long keptLoads;

    /**
     * Keeps loads whose values nobody needs ({@link #loadAppendLines}, {@link #loadGuessedValueLines})
     * from being optimised away: a branch on their sum. Storing the sum into a field of the storage,
     * as before, was a store into one more of its cache lines per append. The loads must be of
     * whole longs: the compiler knows a byte's range, proves that a byte (or a sum of a few) never
     * equals the value compared with, and drops the branch and the load (a guessed line loaded as a
     * byte saved nothing; as a long, 13% of a point select).
     */
    private static void keep(long loaded) {
        if (loaded == Long.MIN_VALUE + 1) {
            keptLoads = loaded;
        }
    }

    /** Whether a live row of {@code batches} holds a NULL (the columns say whether they may hold any). */
    private boolean hasNulls(List<Batch> batches) {
        for (int batchIndex = 0; batchIndex < batches.size(); batchIndex++) {
            for (int column = 0; column < columnCount; column++) {
                if (batches.get(batchIndex).column(column).mayHaveNulls()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Opens a publish: scans taking a snapshot meanwhile wait for it to end (a seqlock, odd while open). */
    private void beginPublish() {
        changeSequence = changeSequence + 1;
    }

    private void endPublish(long addedRows, int killedRows) {
        liveRowCount = liveRowCount + addedRows - killedRows;
        if (killedRows != 0) {
            // A volatile write is a fence on x86: none when nothing died (an insert).
            deadRowCount = deadRowCount + killedRows;
        }
        changeSequence = changeSequence + 1;
    }

    /**
     * Stamps the rows dead with the sequence their publish ends at, and sets their dead bits; the
     * caller holds the write lock inside a publish. Stamp, then the page's newest death, then the
     * bit (release): a reader seeing the bit sees both (see {@link PageLayout}).
     */
    private void killRows(long[] rowIds, int count) {
        long stamp = changeSequence + 1;
        NativePage[] pageArray = pages;
        long stamps = layout.deletionStampsOffset();
        long bitmap = layout.deadBitmapOffset();
        for (int index = 0; index < count; index++) {
            long rowId = rowIds[index];
            MemorySegment page = pageArray[RowIds.pageIndex(rowId)].segment();
            int row = RowIds.row(rowId);
            page.set(LONG, stamps + 8L * row, stamp);
            page.set(LONG, PageLayout.NEWEST_DEATH_OFFSET, stamp);
            long word = bitmap + 8L * (row >>> 6);
            DEAD_WORD.setRelease(page, word, page.get(LONG, word) | (1L << row));
            page.set(INT, PageLayout.DEAD_COUNT_OFFSET, page.get(INT, PageLayout.DEAD_COUNT_OFFSET) + 1);
        }
    }

    /**
     * The dead bits of slots {@code 64 * wordIndex ..} below {@code slots} (bit i for slot
     * {@code 64 * wordIndex + i}), loaded with acquire semantics; bits of slots at or past
     * {@code slots} (unpublished, or a previous owner's bytes) are masked off.
     */
    private long deadBits(MemorySegment page, int wordIndex, int slots) {
        long bits = (long) DEAD_WORD.getAcquire(page, layout.deadBitmapOffset() + 8L * wordIndex);
        int remaining = slots - (wordIndex << 6);
        return remaining >= 64 ? bits : bits & ((1L << remaining) - 1);
    }

    /**
     * Of the dead bits {@code dead} of slots {@code firstSlot ..}, those whose row died at or before
     * {@code upTo}: reads the stamps of those dead slots only.
     */
    private long deathsUpTo(MemorySegment page, int firstSlot, long dead, long upTo) {
        long stamps = layout.deletionStampsOffset() + 8L * firstSlot;
        long result = 0;
        long remaining = dead;
        while (remaining != 0) {
            int bit = Long.numberOfTrailingZeros(remaining);
            remaining &= remaining - 1;
            if (page.get(LONG, stamps + 8L * bit) <= upTo) {
                result |= 1L << bit;
            }
        }
        return result;
    }

    /** Whether slot {@code row}'s dead bit is set (acquire: its stamp can be read after). */
    private boolean deadBit(MemorySegment page, int row) {
        long bits = (long) DEAD_WORD.getAcquire(page, layout.deadBitmapOffset() + 8L * (row >>> 6));
        return (bits & (1L << row)) != 0;
    }

    private NativePage[] addPage(NativePage[] pageArray, int index) {
        NativePage[] array = pageArray;
        long[] addresses = pageAddresses;
        if (index == array.length) {
            array = Arrays.copyOf(array, array.length * 2);
            addresses = Arrays.copyOf(addresses, array.length);
            pageAddresses = addresses;
            pages = array;
        }
        NativePage page = allocator.allocate();
        page.segment().set(INT, PageLayout.HEAP_START_OFFSET, layout.pageSizeBytes());
        array[index] = page;
        addresses[index] = page.segment().address();
        return array;
    }

    private int[] readNullCounts(MemorySegment page) {
        int[] counts = new int[columnCount];
        for (int column = 0; column < columnCount; column++) {
            counts[column] = page.get(INT, layout.nullCountOffset(column));
        }
        return counts;
    }

    /**
     * How many of the live rows from {@code row} fit on a page holding {@code pageRows} rows; fills
     * {@code columnHeapBytes}. Column by column over blocks of {@link #FIT_BLOCK_ROWS} rows: one
     * pass per variable-width column adds each row's value length, then one pass finds how many
     * rows the heap takes, and the next block is summed only while every row fitted (summing all
     * the rows a page could hold by slot count read ~2.5x more lengths than fit in the heap of a
     * page of 60-byte texts, and allocated an array that large per page). May run outside the
     * write lock (VACUUM participants compact pages in parallel): no shared scratch.
     */
    int rowsThatFit(Batch batch, int row, int liveRows, int pageRows, int heapStart, int[] columnHeapBytes) {
        int maximum = Math.min(layout.rowsPerPage() - pageRows, liveRows - row);
        Arrays.fill(columnHeapBytes, 0);
        if (!layout.hasVariableColumns() || maximum <= 0) {
            return Math.max(0, maximum);
        }
        long heapFree = heapStart - layout.fixedAreaEnd();
        int[] selection = batch.selection();
        if (maximum == 1) {
            return oneRowFits(batch, selection == null ? row : selection[row], heapFree, columnHeapBytes) ? 1 : 0;
        }
        long[] bytes = new long[Math.min(maximum, FIT_BLOCK_ROWS)]; // one small array per page filled, not per row
        long used = 0;
        int fit = 0;
        while (fit < maximum) {
            int block = Math.min(bytes.length, maximum - fit);
            int first = row + fit;
            Arrays.fill(bytes, 0, block, 0L);
            for (int column = 0; column < columnCount; column++) {
                if (layout.storageKind(column) != STORAGE_VARIABLE) {
                    continue;
                }
                BytesVector vector = (BytesVector) batch.column(column);
                int[] lengths = vector.lengths();
                boolean[] nulls = vector.mayHaveNulls() ? vector.nulls() : null;
                for (int index = 0; index < block; index++) {
                    int position = selection == null ? first + index : selection[first + index];
                    if (nulls == null || !nulls[position]) {
                        bytes[index] += lengths[position];
                    }
                }
            }
            int index = 0;
            while (index < block && used + bytes[index] <= heapFree) {
                used += bytes[index];
                index++;
            }
            fit += index;
            if (index < block) {
                break;
            }
        }
        for (int column = 0; column < columnCount; column++) {
            if (layout.storageKind(column) != STORAGE_VARIABLE) {
                continue;
            }
            BytesVector vector = (BytesVector) batch.column(column);
            int[] lengths = vector.lengths();
            boolean[] nulls = vector.mayHaveNulls() ? vector.nulls() : null;
            int total = 0;
            for (int index = 0; index < fit; index++) {
                int position = selection == null ? row + index : selection[row + index];
                if (nulls == null || !nulls[position]) {
                    total += lengths[position];
                }
            }
            columnHeapBytes[column] = total;
        }
        return fit;
    }

    /**
     * {@link #rowsThatFit} for one row (a point insert), without its block array: whether the row at
     * {@code position} fits in {@code heapFree} bytes; if so its columns' heap bytes are filled in.
     */
    private boolean oneRowFits(Batch batch, int position, long heapFree, int[] columnHeapBytes) {
        long total = 0;
        for (int column = 0; column < columnCount; column++) {
            if (layout.storageKind(column) == STORAGE_VARIABLE) {
                BytesVector vector = (BytesVector) batch.column(column);
                int length = vector.mayHaveNulls() && vector.nulls()[position] ? 0 : vector.lengths()[position];
                columnHeapBytes[column] = length;
                total += length;
            }
        }
        if (total > heapFree) {
            Arrays.fill(columnHeapBytes, 0); // nothing placed: as rowsThatFit leaves them for 0 rows
            return false;
        }
        return true;
    }

    ParallaxException rowTooBig(Batch batch, int row) {
        int position = batch.position(row);
        long size = layout.fixedBytesPerRow();
        for (int column = 0; column < columnCount; column++) {
            if (layout.storageKind(column) == STORAGE_VARIABLE && !batch.column(column).isNull(position)) {
                size += ((BytesVector) batch.column(column)).length(position);
            }
        }
        return ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "row is too big: size %d, maximum size %d",
                size, (long) layout.fixedBytesPerRow() + layout.emptyPageHeapBytes());
    }

    /**
     * Writes live rows {@code row .. row+count} of the batch to slots {@code firstSlot..} of the page,
     * column by column; each variable-width column's values go contiguously below {@code heapStart}
     * so that a reader can copy them in one piece. Slots from {@code cleanFrom} on are known to hold
     * clear dead and null bits ({@link PageLayout#CLEAN_FROM_OFFSET}); slots before it are
     * cleared first. Returns the new heap start.
     */
    int writeRows(MemorySegment page, Batch batch, int row, int count, int firstSlot, int heapStart, int[] nullCounts,
                          int[] columnHeapBytes, int cleanFrom) {
        return writeRows(page, 0, batch, row, count, firstSlot, heapStart, nullCounts, columnHeapBytes, cleanFrom);
    }

    /**
     * {@link #writeRows(MemorySegment, Batch, int, int, int, int, int[], int[], int)} to the page at
     * {@code base} in {@code page} (the page's own segment and 0, or {@link #MEMORY} and the page's
     * address: the appends of {@link #modify} write by address, see {@link #tailPage}).
     */
    private int writeRows(MemorySegment page, long base, Batch batch, int row, int count, int firstSlot, int heapStart,
                          int[] nullCounts, int[] columnHeapBytes, int cleanFrom) {
        int[] selection = batch.selection();
        int heap = heapStart;
        // Slots before the clean mark may hold stale dead and null bits (a page copied over another
        // owner's bytes, an abandoned append): the new slots start live and not null. Their stamps
        // are left as they are: a live slot's stamp is never read.
        boolean clean = firstSlot >= cleanFrom;
        if (!clean) {
            clearBits(page, base + layout.deadBitmapOffset(), firstSlot, count);
        }
        for (int column = 0; column < columnCount; column++) {
            ColumnVector vector = batch.column(column);
            long nullBitmap = base + layout.nullBitmapOffset(column);
            if (!clean) {
                clearBits(page, nullBitmap, firstSlot, count);
            }
            if (vector.mayHaveNulls()) {
                int nulls = 0;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? row + index : selection[row + index];
                    if (vector.isNull(position)) {
                        setBit(page, nullBitmap, firstSlot + index);
                        nulls++;
                    }
                }
                nullCounts[column] += nulls;
            }
            long data = base + layout.dataOffset(column);
            switch (layout.storageKind(column)) {
                case STORAGE_LONG -> {
                    long[] values = ((LongVector) vector).values();
                    if (selection == null) {
                        MemorySegment.copy(values, row, page, LONG, data + 8L * firstSlot, count);
                    } else {
                        for (int index = 0; index < count; index++) {
                            page.set(LONG, data + 8L * (firstSlot + index), values[selection[row + index]]);
                        }
                    }
                }
                case STORAGE_INT -> {
                    long[] values = ((LongVector) vector).values();
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? row + index : selection[row + index];
                        page.set(INT, data + 4L * (firstSlot + index), (int) values[position]);
                    }
                }
                case STORAGE_SHORT -> {
                    long[] values = ((LongVector) vector).values();
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? row + index : selection[row + index];
                        page.set(SHORT, data + 2L * (firstSlot + index), (short) values[position]);
                    }
                }
                case STORAGE_BYTE -> {
                    long[] values = ((LongVector) vector).values();
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? row + index : selection[row + index];
                        page.set(BYTE, data + (firstSlot + index), (byte) values[position]);
                    }
                }
                case STORAGE_DOUBLE -> {
                    double[] values = ((DoubleVector) vector).values();
                    if (selection == null) {
                        MemorySegment.copy(values, row, page, DOUBLE, data + 8L * firstSlot, count);
                    } else {
                        for (int index = 0; index < count; index++) {
                            page.set(DOUBLE, data + 8L * (firstSlot + index), values[selection[row + index]]);
                        }
                    }
                }
                case STORAGE_FLOAT -> {
                    double[] values = ((DoubleVector) vector).values();
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? row + index : selection[row + index];
                        page.set(FLOAT, data + 4L * (firstSlot + index), (float) values[position]);
                    }
                }
                case STORAGE_VARIABLE -> {
                    BytesVector bytes = (BytesVector) vector;
                    byte[] source = bytes.data();
                    int[] offsets = bytes.offsets();
                    int[] lengths = bytes.lengths();
                    int cursor = heap - columnHeapBytes[column];
                    heap = cursor;
                    long lengthsArea = base + layout.lengthsOffset(column);
                    if (count > 0 && selection == null && !bytes.mayHaveNulls()) {
                        writeValueRuns(page, bytes, row, count, firstSlot, data, lengthsArea, base, cursor);
                        continue;
                    }
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? row + index : selection[row + index];
                        int length = bytes.isNull(position) ? 0 : lengths[position];
                        if (length > 0) {
                            MemorySegment.copy(source, offsets[position], page, BYTE, base + cursor, length);
                        }
                        page.set(INT, data + 4L * (firstSlot + index), cursor);
                        page.set(INT, lengthsArea + 4L * (firstSlot + index), length);
                        cursor += length;
                    }
                }
                default -> throw new IllegalStateException("unknown storage kind");
            }
        }
        return heap;
    }

    /**
     * The values of positions {@code row .. row+count} (no nulls) to {@code cursor} on, one copy per
     * run of values that follow each other in the data array: a vector read from a page or built
     * by an expression holds its values in one such run, and one copy per value was a quarter of
     * VACUUM's page compaction (JFR, VacuumBenchmark: 9-byte texts). A vector read from a page that
     * several appends filled holds one run per append (each append's values lie below the previous
     * one's in the page's heap), which took the copy per value before, for every row of INSERT ...
     * SELECT of md5 texts (JFR, SortQueryBenchmark.md5TextIntoTableUnordered).
     */
    private static void writeValueRuns(MemorySegment page, BytesVector bytes, int row, int count, int firstSlot,
                                       long offsetsArea, long lengthsArea, long base, int cursor) {
        int[] offsets = bytes.offsets();
        int[] lengths = bytes.lengths();
        byte[] data = bytes.data();
        MemorySegment.copy(lengths, row, page, INT, lengthsArea + 4L * firstSlot, count);
        int end = row + count;
        int runStart = row;
        int at = cursor;
        while (runStart < end) {
            int runEnd = runStart + 1;
            int next = offsets[runStart] + lengths[runStart];
            while (runEnd < end && offsets[runEnd] == next) {
                next += lengths[runEnd];
                runEnd++;
            }
            int first = offsets[runStart];
            MemorySegment.copy(data, first, page, BYTE, base + at, next - first);
            int shift = at - first;
            for (int index = runStart; index < runEnd; index++) {
                page.set(INT, offsetsArea + 4L * (firstSlot + index - row), offsets[index] + shift);
            }
            at += next - first;
            runStart = runEnd;
        }
    }

    private static void setBit(MemorySegment page, long bitmap, int bit) {
        long address = bitmap + (bit >>> 3);
        page.set(BYTE, address, (byte) (page.get(BYTE, address) | (1 << (bit & 7))));
    }

    private static boolean bit(MemorySegment page, long bitmap, int bit) {
        return (page.get(BYTE, bitmap + (bit >>> 3)) & (1 << (bit & 7))) != 0;
    }

    /** Clears bits {@code from .. from+count}; slots past a failed append may hold stale null bits. */
    private static void clearBits(MemorySegment page, long bitmap, int from, int count) {
        int bit = from;
        int end = from + count;
        while (bit < end && (bit & 7) != 0) {
            long address = bitmap + (bit >>> 3);
            page.set(BYTE, address, (byte) (page.get(BYTE, address) & ~(1 << (bit & 7))));
            bit++;
        }
        int wholeBytes = (end - bit) >>> 3;
        if (wholeBytes > 0) {
            page.asSlice(bitmap + (bit >>> 3), wholeBytes).fill((byte) 0);
            bit += wholeBytes << 3;
        }
        while (bit < end) {
            long address = bitmap + (bit >>> 3);
            page.set(BYTE, address, (byte) (page.get(BYTE, address) & ~(1 << (bit & 7))));
            bit++;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Visibility

    /**
     * Marks row slot {@code row} of page {@code pageIndex} dead; scans starting afterwards stop
     * returning it. Returns false when it was already dead. The slot stays until VACUUM reclaims it.
     */
    public boolean delete(int pageIndex, int row) {
        synchronized (writeLock()) {
            ensureOpen();
            checkSlot(publishedPage(pageIndex), pageIndex, row);
            return modify(List.of(), new long[] {RowIds.pack(pageIndex, row)}, 1, null);
        }
    }

    /** True when row slot {@code row} of page {@code pageIndex} is dead (deleted, or replaced by a newer version). */
    public boolean isDeleted(int pageIndex, int row) {
        MemorySegment page = publishedPage(pageIndex);
        checkSlot(page, pageIndex, row);
        return deadBit(page, row);
    }

    /** True when the row {@code rowId} addresses is dead; see {@link #isDeleted}. */
    public boolean isDead(long rowId) {
        return isDeleted(RowIds.pageIndex(rowId), RowIds.row(rowId));
    }

    /** The guess of where column {@code column}'s values lie on page {@code pageIndex} ({@link HeapPositionHints}), for tests. */
    long heapHint(int pageIndex, int column) {
        return HeapPositionHints.hint(heapHints, HeapPositionHints.index(pageIndex, columnCount, column));
    }

    /** Row slots published on page {@code pageIndex}, dead ones included (slots run 0 .. this-1); 0 for a hole. */
    public int pageRowSlots(int pageIndex) {
        MemorySegment page = pageOrHole(pageIndex);
        return page == null ? 0 : (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
    }

    /**
     * Dead row slots on page {@code pageIndex} (what VACUUM can reclaim there); 0 for a hole, and
     * for a page past the end (a participant of a parallel VACUUM may cut trailing holes off).
     */
    public int pageDeletedRows(int pageIndex) {
        if (pageIndex >= pageCount) {
            return 0;
        }
        MemorySegment page = pageOrHole(pageIndex);
        return page == null ? 0 : page.get(INT, PageLayout.DEAD_COUNT_OFFSET);
    }

    /** True when VACUUM freed page {@code pageIndex} (all its rows were dead); it reads as empty. */
    public boolean isHole(int pageIndex) {
        return pageOrHole(pageIndex) == null;
    }

    /**
     * The change sequence at which the slot died, 0 while it is live. VACUUM may reclaim a slot
     * once every scan open since before that sequence has finished.
     */
    public long deathSequence(int pageIndex, int row) {
        MemorySegment page = publishedPage(pageIndex);
        checkSlot(page, pageIndex, row);
        return deadBit(page, row) ? page.get(LONG, layout.deletionStampsOffset() + 8L * row) : 0;
    }

    @Override
    public int pageSlotCapacity() {
        return layout.rowsPerPage();
    }

    @Override
    public long changeSequence() {
        return changeSequence;
    }

    /**
     * What a scan starting now may see: the pages and slots published so far, and the rows dead so
     * far. Never blocks on a writer for longer than its publish step (a seqlock read), or the
     * publishes of a statement publishing to several tables together ({@link #holdSnapshots()}).
     */
    @Override
    public ScanSnapshot snapshot() {
        while (true) {
            long sequence = changeSequence;
            if (((sequence | groupSequence) & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            int count = pageCount;
            NativePage last = count == 0 ? null : (NativePage) PAGE_SLOT.getAcquire(pages, count - 1);
            int lastSlots = last == null ? 0 : (int) ROW_COUNT.getAcquire(last.segment(), PageLayout.ROW_COUNT_OFFSET);
            VarHandle.acquireFence();
            if (changeSequence == sequence) {
                return new ScanSnapshot(sequence, count, lastSlots);
            }
        }
    }

    /**
     * Runs the write steps of one statement on several tables ({@code storages}, distinct, in
     * partition order: the order in which every writer takes their locks, so two statements never
     * wait for each other in a cycle) as one: takes their write locks, runs {@code steps}, which
     * nests their {@link #modify} calls (each next one inside the previous one's guard, so that a
     * failure anywhere abandons all of them) and, in the innermost guard once nothing can fail any
     * more, holds back the snapshots of all of them ({@link #holdSnapshots()}) until every one is
     * published; then ends the hold and runs {@code afterPublish} (when not null), still under all
     * the locks.
     */
    public static void publishTogether(List<PagedTableStorage> storages, Runnable steps, Runnable afterPublish) {
        lockFrom(storages, 0, steps, afterPublish);
    }

    private static void lockFrom(List<PagedTableStorage> storages, int index, Runnable steps, Runnable afterPublish) {
        if (index < storages.size()) {
            storages.get(index).exclusively(() -> {
                lockFrom(storages, index + 1, steps, afterPublish);
                return null;
            });
            return;
        }
        try {
            steps.run();
        } finally {
            for (PagedTableStorage storage : storages) {
                // Odd only while this statement holds it: its lock keeps every other statement out.
                if ((storage.groupSequence & 1) != 0) {
                    storage.groupSequence = storage.groupSequence + 1;
                }
            }
        }
        if (afterPublish != null) {
            afterPublish.run();
        }
    }

    /**
     * Makes {@link #snapshot()} wait (moves {@link #groupSequence()} to odd) until the end of the
     * {@link #publishTogether} this is called in: so that a snapshot falls before or after all of
     * that statement's publishes to its tables, never between two (a row moving from one partition
     * to another dies in one and appears in the other). Called in the innermost guard, after the
     * last wait for anything and before the first publish, so that readers wait for the publishes
     * alone (a few stores per page). The caller holds the write lock.
     */
    public void holdSnapshots() {
        synchronized (writeLock()) {
            if ((groupSequence & 1) == 0) {
                groupSequence = groupSequence + 1;
            }
        }
    }

    @Override
    public long groupSequence() {
        return groupSequence;
    }

    @Override
    public long abandonedSteps() {
        return abandonedSteps;
    }

    @Override
    public boolean isPublished(long rowId) {
        MemorySegment page = pageForScan(RowIds.pageIndex(rowId));
        return page != null && RowIds.row(rowId) < (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
    }

    private void checkSlot(MemorySegment page, int pageIndex, int row) {
        int rows = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of page " + pageIndex + " holding " + rows + " rows");
        }
    }

    /** The page at {@code pageIndex}; IndexOutOfBoundsException for a hole or a page past the end. */
    private MemorySegment publishedPage(int pageIndex) {
        MemorySegment page = pageOrHole(pageIndex);
        if (page == null) {
            throw new IndexOutOfBoundsException("page " + pageIndex + " was freed by VACUUM");
        }
        return page;
    }

    /**
     * The page at {@code pageIndex}, or null for a hole; IndexOutOfBoundsException past the end.
     * Package-private: tests check where a page lies (which mapping, which huge-page advice).
     */
    MemorySegment pageOrHole(int pageIndex) {
        int count = pageCount;
        if (pageIndex < 0 || pageIndex >= count) {
            throw new IndexOutOfBoundsException("page " + pageIndex + " of " + count);
        }
        NativePage page = (NativePage) PAGE_SLOT.getAcquire(pages, pageIndex);
        return page == null ? null : page.segment();
    }

    /**
     * The page a scan reads at {@code pageIndex}, or null when there is nothing to read: a hole,
     * or a page VACUUM cut off the end after the scan counted it (it had no live row).
     */
    private MemorySegment pageForScan(int pageIndex) {
        if (pageIndex < 0) {
            throw new IndexOutOfBoundsException("page " + pageIndex);
        }
        if (pageIndex >= pageCount) {
            return null;
        }
        NativePage page = (NativePage) PAGE_SLOT.getAcquire(pages, pageIndex);
        return page == null ? null : page.segment();
    }

    /**
     * Registers a page read in the current epoch; returns the epoch's parity for {@link #exitRead}.
     * Until then no page the reader may have reached is freed. Package-private for tests.
     */
    int enterRead() {
        while (true) {
            int epoch = readEpoch;
            int parity = epoch & 1;
            addReaders(parity, 1);
            if (readEpoch == epoch) {
                return parity;
            }
            // The epoch moved between reading it and registering: register in the new one.
            addReaders(parity, -1);
        }
    }

    /** Ends the page read {@link #enterRead} registered. */
    void exitRead(int parity) {
        addReaders(parity, -1);
    }

    private void addReaders(int parity, long delta) {
        if (parity == 0) {
            EVEN_EPOCH_READERS.getAndAdd(this, delta);
        } else {
            ODD_EPOCH_READERS.getAndAdd(this, delta);
        }
    }

    /** The page reads registered in the epochs of {@code parity} and not yet ended. */
    private long readers(int parity) {
        return parity == 0 ? evenEpochReaders : oddEpochReaders;
    }

    // ---------------------------------------------------------------------------------------------
    // Vacuum

    /**
     * Reclaims the removable dead rows of page {@code pageIndex}: the rows kept (live ones, and dead
     * ones an open snapshot may still see) are copied, in slot order, to a fresh page (variable-width
     * values packed, so the heap space of removed rows comes back), which replaces the old one under
     * the same page index; a page left without rows becomes a hole, and trailing holes shorten the
     * table down to the page count the open snapshots cover. The n-th kept row moves to slot n.
     * <p>
     * A dead row is removable when it died at or before the oldest open snapshot's sequence
     * ({@link #openSnapshot}); a page an open snapshot forbids renumbering ({@link SnapshotUse}) is
     * left alone, its dead rows counted as not yet removable. The decision and the compaction run
     * under the open snapshots' monitor, so a scan opening meanwhile waits for this one page.
     * <p>
     * Runs under the storage's write lock (appends and deletes wait; readers do not). Before the new
     * page is published, {@code listener} (when not null) is told the old kept and removed slots, so
     * that it can repoint index entries; the old page can still be read with {@link #readSlots}
     * then. The replaced page is retired, not freed: call {@link #reclaimRetiredPages} afterwards.
     * A page without removable rows, or a hole, is left alone.
     *
     * @param buffers the calling thread's buffers ({@link #compactionBuffers()}), reused between calls
     */
    public PageCompaction compactPage(int pageIndex, CompactionBuffers buffers, PageCompactionListener listener) {
        synchronized (openSnapshots) {
            synchronized (writeLock()) {
                PreparedCompaction prepared = chooseSlots(pageIndex, buffers);
                if (prepared.isDone()) {
                    return prepared.outcome();
                }
                copyKeptRows(prepared, buffers);
                return replacePage(prepared, listener);
            }
        }
    }

    /**
     * The first half of {@link #compactPage}, for VACUUM's participants: chooses the slots to
     * remove under the storage's monitors (briefly), then copies the kept rows to a fresh page
     * without any lock, so that appends and deletes do not wait for the copy and several
     * participants can compact pages of one table at once. Nothing changes in the table; publish
     * the result with {@link #publishCompaction} (or drop it with {@link #abandonCompaction}).
     *
     * @param buffers the calling thread's buffers ({@link #compactionBuffers()}): the result refers
     *                to them until it is published or abandoned
     */
    public PreparedCompaction prepareCompaction(int pageIndex, CompactionBuffers buffers) {
        PreparedCompaction prepared;
        synchronized (openSnapshots) {
            synchronized (writeLock()) {
                prepared = chooseSlots(pageIndex, buffers);
            }
        }
        if (!prepared.isDone()) {
            // Only this compaction replaces the page, and read epochs keep a page from being freed
            // while it is read, so the old page stays readable; writers only add rows past its row
            // count and stamp deaths, which the publish detects by the change sequence.
            int epochSlot = enterRead();
            try {
                copyKeptRows(prepared, buffers);
            } finally {
                exitRead(epochSlot);
            }
        }
        return prepared;
    }

    /**
     * The second half: under the storage's monitors, publishes a prepared compaction as
     * {@link #compactPage} would (listener, swap, retire), when the table did not change since it
     * was prepared (same change sequence, same page, renumbering still allowed); otherwise drops the
     * copy and compacts the page afresh under the monitors. Same contract as {@link #compactPage}.
     */
    public PageCompaction publishCompaction(PreparedCompaction prepared, CompactionBuffers buffers,
                                            PageCompactionListener listener) {
        if (prepared.isDone()) {
            return prepared.outcome();
        }
        synchronized (openSnapshots) {
            synchronized (writeLock()) {
                if (closed || changeSequence != prepared.sequence || prepared.pageIndex >= pageCount
                        || PAGE_SLOT.getAcquire(pages, prepared.pageIndex) != prepared.source
                        || !openSnapshots.mayRenumber(prepared.pageIndex)) {
                    abandonCompaction(prepared);
                    return compactPage(prepared.pageIndex, buffers, listener);
                }
                return replacePage(prepared, listener);
            }
        }
    }

    /** Gives back the copy of a prepared compaction that will not be published. */
    public void abandonCompaction(PreparedCompaction prepared) {
        if (prepared.replacement != null) {
            allocator.free(prepared.replacement);
            prepared.replacement = null;
        }
    }

    /**
     * Keeps slabs that this table's VACUUM empties for reuse until the hold closes
     * ({@link PageAllocator#holdEmptySlabs}).
     */
    public PageAllocator.EmptySlabHold holdEmptySlabs() {
        return allocator.holdEmptySlabs();
    }

    /** Buffers for one thread's compactions of this table's pages (see {@link CompactionBuffers}). */
    public CompactionBuffers compactionBuffers() {
        return new CompactionBuffers(layout.rowsPerPage(), allocator);
    }

    /** Which slots of page {@code pageIndex} go, listed in {@code buffers}; the caller holds both monitors. */
    private PreparedCompaction chooseSlots(int pageIndex, CompactionBuffers buffers) {
        ensureOpen();
        // Past the end: another participant's compaction cut trailing holes off.
        MemorySegment page = pageIndex >= pageCount ? null : pageOrHole(pageIndex);
        if (page == null) {
            return new PreparedCompaction(PageCompaction.NOTHING);
        }
        int slots = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
        int dead = page.get(INT, PageLayout.DEAD_COUNT_OFFSET);
        if (dead == 0) {
            return new PreparedCompaction(new PageCompaction(slots, 0, 0, false));
        }
        if (!openSnapshots.mayRenumber(pageIndex)) {
            return new PreparedCompaction(new PageCompaction(slots - dead, 0, dead, false));
        }
        // Under the write lock no publish is under way: every stamp is at most the sequence.
        long removableUpTo = openSnapshots.removableUpTo(changeSequence);
        // No open snapshot is older than the page's newest death (always, without concurrent scans):
        // every dead bit is removable, and no stamp is read.
        boolean allRemovable = page.get(LONG, PageLayout.NEWEST_DEATH_OFFSET) <= removableUpTo;
        int[] keptSlots = buffers.keptSlots;
        int[] removedSlots = buffers.removedSlots;
        int keptCount = 0;
        int removedCount = 0;
        for (int first = 0; first < slots; first += 64) {
            long deadBits = deadBits(page, first >>> 6, slots);
            long removable = allRemovable || deadBits == 0 ? deadBits : deathsUpTo(page, first, deadBits, removableUpTo);
            int end = Math.min(slots, first + 64);
            for (int slot = first; slot < end; slot++) {
                // Both lists written, one advanced: no branch on the (random) dead bits.
                int removed = (int) (removable >>> slot) & 1;
                removedSlots[removedCount] = slot;
                keptSlots[keptCount] = slot;
                removedCount += removed;
                keptCount += 1 - removed;
            }
        }
        int keptDead = dead - removedCount;
        if (removedCount == 0) {
            return new PreparedCompaction(new PageCompaction(slots - dead, 0, keptDead, false));
        }
        return new PreparedCompaction(pageIndex, pages[pageIndex], changeSequence, keptSlots, keptCount, keptDead,
                removedSlots, removedCount);
    }

    /**
     * Copies the kept rows of a prepared compaction to a fresh page (none when no row is kept): the
     * thread's spare page when it has one, else one from the allocator.
     */
    private void copyKeptRows(PreparedCompaction prepared, CompactionBuffers buffers) {
        if (prepared.keptCount == 0) {
            return;
        }
        // writeCompactedCopy writes the header and every slot it fills: no need to zero 128 KiB first.
        NativePage replacement = buffers.spare;
        buffers.spare = null;
        if (replacement == null) {
            replacement = allocator.allocateForOverwrite();
        }
        try {
            writeCompactedCopy(prepared.source.segment(), replacement.segment(), prepared.keptSlots, prepared.keptCount,
                    prepared.keptDead);
        } catch (RuntimeException | Error failure) {
            allocator.free(replacement);
            throw failure;
        }
        prepared.replacement = replacement;
    }

    /** The compaction proper, under both monitors: tell the listener, publish, retire, shorten. */
    private PageCompaction replacePage(PreparedCompaction prepared, PageCompactionListener listener) {
        int pageIndex = prepared.pageIndex;
        NativePage replacement = prepared.replacement;
        // Odd from before index entries move until the new page is published: see relocations().
        relocations = relocations + 1;
        try {
            if (listener != null) {
                try {
                    listener.compacting(pageIndex, prepared.keptSlots, prepared.keptCount, prepared.removedSlots,
                            prepared.removedCount);
                } catch (RuntimeException | Error failure) {
                    abandonCompaction(prepared);
                    throw failure;
                }
            }
            NativePage[] pageArray = pages;
            retiredPages.add(pageArray[pageIndex]);
            PAGE_SLOT.setRelease(pageArray, pageIndex, replacement);
            ADDRESS_SLOT.setRelease(pageAddresses, pageIndex, replacement == null ? 0L : replacement.segment().address());
            prepared.replacement = null;
            if (hugePagesWanted && replacement != null && pageIndex < hugePagesOfferedTo) {
                // A later write names only the pages past the ones named so far.
                allocator.preferHugePages(pageArray, pageIndex, pageIndex + 1);
            }
        } finally {
            relocations = relocations + 1;
        }
        deadRowCount = deadRowCount - prepared.removedCount;
        boolean removed = replacement == null;
        if (removed) {
            shortenPastTrailingHoles();
        }
        return new PageCompaction(prepared.keptCount - prepared.keptDead, prepared.removedCount, prepared.keptDead, removed);
    }

    /**
     * Drops trailing holes from the page count, but not below the pages an open snapshot covers
     * (an append would otherwise place new rows under an index the snapshot reads). The caller
     * holds both monitors.
     */
    private void shortenPastTrailingHoles() {
        NativePage[] pageArray = pages;
        int floor = openSnapshots.pageCountFloor();
        int count = pageCount;
        while (count > floor && PAGE_SLOT.getAcquire(pageArray, count - 1) == null) {
            count--;
        }
        pageCount = count;
    }

    /**
     * Drops the trailing holes that an earlier compaction had to keep because a snapshot covered
     * them, as far as the snapshots open now allow. Returns the pages dropped.
     */
    public int truncateTrailingHoles() {
        synchronized (openSnapshots) {
            synchronized (writeLock()) {
                ensureOpen();
                int before = pageCount;
                shortenPastTrailingHoles();
                if (pageCount < before) {
                    // Page indexes past the new end will be handed out again: whatever covered
                    // them (an ordered index's record of the rows it holds) must start over.
                    relocations = relocations + 2;
                }
                return before - pageCount;
            }
        }
    }

    /** Open snapshots of this storage (scans running now); for tests and monitoring. */
    public int openSnapshotCount() {
        return openSnapshots.openCount();
    }

    /**
     * Copies the slots {@code keptSlots[0..keptCount)} of {@code from} (with their deletion stamps:
     * {@code keptDead} of them are dead rows kept for open snapshots) to slots 0.. of the page
     * {@code to}, which may hold a previous owner's bytes, and publishes its header. Page to page,
     * column by column: a batch in between doubled the bytes moved per compacted page and cost one
     * copy call per variable-width value.
     */
    private void writeCompactedCopy(MemorySegment from, MemorySegment to, int[] keptSlots, int keptCount, int keptDead) {
        // The page may hold a previous owner's bytes: clear the header (flags included). The dead
        // bits, null bits and values of slots 0..keptCount are all written below, and the stamps of
        // the dead ones (a live slot's stamp is never read); later slots keep the old bytes until an
        // append fills them, which clears their bits first: the clean mark says no slot is clean.
        to.asSlice(0, layout.deadBitmapOffset()).fill((byte) 0);
        to.set(INT, PageLayout.CLEAN_FROM_OFFSET, layout.rowsPerPage());
        long deadBitmap = layout.deadBitmapOffset();
        clearBits(to, deadBitmap, 0, keptCount);
        if (keptDead > 0) {
            long stamps = layout.deletionStampsOffset();
            for (int slot = 0; slot < keptCount; slot++) {
                if (bit(from, deadBitmap, keptSlots[slot])) {
                    setBit(to, deadBitmap, slot);
                    to.set(LONG, stamps + 8L * slot, from.get(LONG, stamps + 8L * keptSlots[slot]));
                }
            }
            to.set(LONG, PageLayout.NEWEST_DEATH_OFFSET, from.get(LONG, PageLayout.NEWEST_DEATH_OFFSET));
        }
        int heapStart = layout.pageSizeBytes();
        for (int column = 0; column < columnCount; column++) {
            long nullBitmap = layout.nullBitmapOffset(column);
            boolean sourceHasNulls = from.get(INT, layout.nullCountOffset(column)) != 0;
            clearBits(to, nullBitmap, 0, keptCount);
            if (sourceHasNulls) {
                int nulls = 0;
                for (int slot = 0; slot < keptCount; slot++) {
                    if (bit(from, nullBitmap, keptSlots[slot])) {
                        setBit(to, nullBitmap, slot);
                        nulls++;
                    }
                }
                to.set(INT, layout.nullCountOffset(column), nulls);
            }
            long data = layout.dataOffset(column);
            switch (layout.storageKind(column)) {
                case STORAGE_LONG, STORAGE_DOUBLE -> {
                    long index = data >>> 3;
                    for (int slot = 0; slot < keptCount; slot++) {
                        to.setAtIndex(LONG, index + slot, from.getAtIndex(LONG, index + keptSlots[slot]));
                    }
                }
                case STORAGE_INT, STORAGE_FLOAT -> {
                    long index = data >>> 2;
                    for (int slot = 0; slot < keptCount; slot++) {
                        to.setAtIndex(INT, index + slot, from.getAtIndex(INT, index + keptSlots[slot]));
                    }
                }
                case STORAGE_SHORT -> {
                    long index = data >>> 1;
                    for (int slot = 0; slot < keptCount; slot++) {
                        to.setAtIndex(SHORT, index + slot, from.getAtIndex(SHORT, index + keptSlots[slot]));
                    }
                }
                case STORAGE_BYTE -> {
                    for (int slot = 0; slot < keptCount; slot++) {
                        to.set(BYTE, data + slot, from.get(BYTE, data + keptSlots[slot]));
                    }
                }
                case STORAGE_VARIABLE -> heapStart = copyVariableValues(from, to, column, keptSlots, keptCount, heapStart,
                        sourceHasNulls);
                default -> throw new IllegalStateException("unknown storage kind");
            }
        }
        to.set(INT, PageLayout.HEAP_START_OFFSET, heapStart);
        to.set(INT, PageLayout.DEAD_COUNT_OFFSET, keptDead);
        ROW_COUNT.setRelease(to, PageLayout.ROW_COUNT_OFFSET, keptCount);
    }

    /**
     * The kept values of one variable-width column, placed just below {@code heapEnd} in slot order
     * (as {@link #writeRows} places a column's values); returns where they start. Values that lie
     * back to back on {@code from} (rows appended together, with no removed row between them) move
     * in one copy. A null keeps length 0, as {@link #writeRows} writes it.
     */
    private int copyVariableValues(MemorySegment from, MemorySegment to, int column, int[] keptSlots, int keptCount,
                                   int heapEnd, boolean sourceHasNulls) {
        long offsets = layout.dataOffset(column);
        long lengths = layout.lengthsOffset(column);
        long nullBitmap = layout.nullBitmapOffset(column);
        int total = 0;
        for (int slot = 0; slot < keptCount; slot++) {
            int kept = keptSlots[slot];
            int length = sourceHasNulls && bit(from, nullBitmap, kept) ? 0 : from.get(INT, lengths + 4L * kept);
            to.set(INT, lengths + 4L * slot, length);
            total += length;
        }
        int start = heapEnd - total;
        int cursor = start;
        int runSource = 0;
        int runTarget = start;
        int runLength = 0;
        for (int slot = 0; slot < keptCount; slot++) {
            int length = to.get(INT, lengths + 4L * slot);
            to.set(INT, offsets + 4L * slot, cursor);
            if (length == 0) {
                continue;
            }
            int source = from.get(INT, offsets + 4L * keptSlots[slot]);
            if (runLength > 0 && source == runSource + runLength) {
                runLength += length;
            } else {
                if (runLength > 0) {
                    MemorySegment.copy(from, runSource, to, runTarget, runLength);
                }
                runSource = source;
                runTarget = cursor;
                runLength = length;
            }
            cursor += length;
        }
        if (runLength > 0) {
            MemorySegment.copy(from, runSource, to, runTarget, runLength);
        }
        return start;
    }

    /**
     * VACUUM FULL: copies the live rows, in table order, into fresh pages packed as a fresh load
     * packs them (each page filled before the next is taken), publishes them in place of the old
     * pages at once, and retires every old page (free them with {@link #reclaimRetiredPages}).
     * Rows move between pages, so no scan may be open: this waits up to {@code waitMillis} for the
     * open snapshots to close and returns null, changing nothing, if one is still open then (the
     * caller retries; new scans wait while the rewrite runs, for its length). Also returns null,
     * changing nothing, when {@code cancelled} turns true (polled once per page).
     * <p>
     * The caller keeps statements that hold row ids out (the table's row id lock). Runs under the
     * storage's write lock. Before the new pages are published, {@code listener} learns every
     * moved and every removed row, and the relocation count is odd ({@link #relocations}). Needs
     * memory for the copy while the old pages are still held: running out fails with 53200 and
     * leaves the table as it was.
     *
     * @param scratch   a batch of all the table's columns, reused
     * @param pagesRead told the number of old pages copied so far, once per page
     */
    public TableRewrite rewriteCompactly(Batch scratch, TableRewriteListener listener, long waitMillis,
                                         java.util.function.IntConsumer pagesRead, java.util.function.BooleanSupplier cancelled) {
        synchronized (openSnapshots) {
            if (!openSnapshots.awaitNoneOpen(waitMillis)) {
                return null;
            }
            synchronized (writeLock()) {
                ensureOpen();
                int oldCount = pageCount;
                NativePage[] oldPages = pages;
                List<NativePage> newPages = new ArrayList<>();
                List<long[]> sources = new ArrayList<>();
                boolean published = false;
                try {
                    long kept = copyLiveRows(oldPages, oldCount, scratch, newPages, sources, pagesRead, cancelled);
                    if (kept < 0) {
                        return null;
                    }
                    long removed = deadRowCount;
                    relocations = relocations + 1;
                    try {
                        tellRewrite(oldPages, oldCount, newPages, sources, scratch, listener);
                        publishRewrite(oldPages, oldCount, newPages);
                        published = true;
                    } finally {
                        relocations = relocations + 1;
                    }
                    return new TableRewrite(oldCount, newPages.size(), removed, kept);
                } finally {
                    if (!published) {
                        // Cancelled, out of memory, or a failing listener: the old pages stay.
                        for (NativePage page : newPages) {
                            allocator.free(page);
                        }
                    }
                }
            }
        }
    }

    /**
     * Writes the live rows of the old pages to new pages (added to {@code newPages}), recording the
     * old row id of each new slot in {@code sources}; returns the rows copied, or -1 when cancelled.
     */
    private long copyLiveRows(NativePage[] oldPages, int oldCount, Batch scratch, List<NativePage> newPages, List<long[]> sources,
                              java.util.function.IntConsumer pagesRead, java.util.function.BooleanSupplier cancelled) {
        int[] allColumns = allColumns();
        int[] slots = new int[layout.rowsPerPage()];
        int[] columnHeapBytes = new int[columnCount];
        MemorySegment current = null;
        long[] currentSources = null;
        int currentRows = 0;
        int heapStart = 0;
        int[] nullCounts = null;
        long copied = 0;
        for (int pageIndex = 0; pageIndex < oldCount; pageIndex++) {
            if (cancelled.getAsBoolean()) {
                return -1;
            }
            pagesRead.accept(pageIndex);
            NativePage old = oldPages[pageIndex];
            if (old == null) {
                continue;
            }
            int rows = readLivePage(old.segment(), pageIndex, allColumns, scratch, null, slots);
            int row = 0;
            while (row < rows) {
                if (current == null) {
                    NativePage page = allocator.allocate();
                    newPages.add(page);
                    current = page.segment();
                    currentSources = new long[layout.rowsPerPage()];
                    sources.add(currentSources);
                    currentRows = 0;
                    heapStart = layout.pageSizeBytes();
                    nullCounts = new int[columnCount];
                }
                int fit = rowsThatFit(scratch, row, rows, currentRows, heapStart, columnHeapBytes);
                if (fit == 0) {
                    // Full: the next row starts a new page (a row always fits an empty one: it came from a page).
                    finishRewrittenPage(current, currentRows, heapStart, nullCounts);
                    current = null;
                    continue;
                }
                // A fresh page from allocate(): zeroed, every slot clean.
                heapStart = writeRows(current, scratch, row, fit, currentRows, heapStart, nullCounts, columnHeapBytes, 0);
                for (int index = 0; index < fit; index++) {
                    currentSources[currentRows + index] = RowIds.pack(pageIndex, slots[row + index]);
                }
                currentRows += fit;
                row += fit;
                copied += fit;
            }
        }
        if (current != null) {
            finishRewrittenPage(current, currentRows, heapStart, nullCounts);
        }
        pagesRead.accept(oldCount);
        return copied;
    }

    private void finishRewrittenPage(MemorySegment page, int rows, int heapStart, int[] nullCounts) {
        page.set(INT, PageLayout.HEAP_START_OFFSET, heapStart);
        for (int column = 0; column < columnCount; column++) {
            page.set(INT, layout.nullCountOffset(column), nullCounts[column]);
        }
        ROW_COUNT.setRelease(page, PageLayout.ROW_COUNT_OFFSET, rows);
    }

    /** Tells the listener every move (read back from the new pages) and every dead row (from the old ones). */
    private void tellRewrite(NativePage[] oldPages, int oldCount, List<NativePage> newPages, List<long[]> sources, Batch scratch,
                             TableRewriteListener listener) {
        if (listener == null) {
            return;
        }
        int[] allColumns = allColumns();
        long[] toRowIds = new long[layout.rowsPerPage()];
        for (int newIndex = 0; newIndex < newPages.size(); newIndex++) {
            int rows = readLivePage(newPages.get(newIndex).segment(), newIndex, allColumns, scratch, null, null);
            for (int row = 0; row < rows; row++) {
                toRowIds[row] = RowIds.pack(newIndex, row);
            }
            listener.rowsMoved(scratch, sources.get(newIndex), toRowIds, rows);
        }
        int[] deadSlots = new int[layout.rowsPerPage()];
        long[] deadRowIds = new long[layout.rowsPerPage()];
        for (int pageIndex = 0; pageIndex < oldCount; pageIndex++) {
            NativePage old = oldPages[pageIndex];
            if (old == null || old.segment().get(INT, PageLayout.DEAD_COUNT_OFFSET) == 0) {
                continue;
            }
            MemorySegment page = old.segment();
            int slots = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
            int deadCount = 0;
            for (int first = 0; first < slots; first += 64) {
                long dead = deadBits(page, first >>> 6, slots);
                while (dead != 0) {
                    int slot = first + Long.numberOfTrailingZeros(dead);
                    dead &= dead - 1;
                    deadSlots[deadCount] = slot;
                    deadRowIds[deadCount] = RowIds.pack(pageIndex, slot);
                    deadCount++;
                }
            }
            tellRemoved(page, deadSlots, deadRowIds, deadCount, scratch, listener);
        }
    }

    /** Reads the rows at {@code slots[0..count]} of {@code page} into {@code scratch} and tells the listener they went away. */
    private void tellRemoved(MemorySegment page, int[] slots, long[] rowIds, int count, Batch scratch, TableRewriteListener listener) {
        scratch.reset();
        scratch.ensureCapacity(count);
        for (int column = 0; column < columnCount; column++) {
            readColumnRows(page, column, slots, count, scratch.column(column), 0);
        }
        scratch.setRowCount(count);
        listener.rowsRemoved(scratch, rowIds, count);
    }

    /**
     * TRUNCATE: every page goes, as VACUUM FULL's rewrite with no row kept. The caller holds the
     * table as {@link #exclusivelyWithoutScans} gives it (no scan open, no writer) and keeps
     * statements that hold row ids out (the table's row id lock). Before the empty page array is
     * published, {@code listener} (when not null) learns every row slot, live and dead, as removed,
     * so that the unique indexes let go of their keys; the relocation count is odd meanwhile and
     * moves twice, so ordered indexes turn stale and point readers that fetched a row id before
     * retry. The old pages are retired, not freed: call {@link #reclaimRetiredPages} afterwards,
     * outside the caller's hold, so that readers of single pages finish on them first. Returns the
     * number of pages the table held. {@code beforePublish} (when not null) runs after the listener,
     * still with the relocation count odd: TRUNCATE empties whole indexes there.
     */
    public int truncate(Batch scratch, TableRewriteListener listener, Runnable beforePublish) {
        synchronized (writeLock()) {
            ensureOpen();
            int oldCount = pageCount;
            NativePage[] oldPages = pages;
            relocations = relocations + 1;
            try {
                if (listener != null) {
                    tellTruncate(oldPages, oldCount, scratch, listener);
                }
                if (beforePublish != null) {
                    beforePublish.run();
                }
                // A publish (the sequence odd, then moved on), so a prepared compaction of an old page never lands.
                beginPublish();
                publishRewrite(oldPages, oldCount, List.of());
                liveRowCount = 0;
                changeSequence = changeSequence + 1;
            } finally {
                relocations = relocations + 1;
            }
            return oldCount;
        }
    }

    /** Tells the listener every published slot of the old pages, live or dead, as removed. */
    private void tellTruncate(NativePage[] oldPages, int oldCount, Batch scratch, TableRewriteListener listener) {
        int[] slots = new int[layout.rowsPerPage()];
        long[] rowIds = new long[layout.rowsPerPage()];
        for (int pageIndex = 0; pageIndex < oldCount; pageIndex++) {
            NativePage old = oldPages[pageIndex];
            if (old == null) {
                continue;
            }
            MemorySegment page = old.segment();
            int count = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
            for (int slot = 0; slot < count; slot++) {
                slots[slot] = slot;
                rowIds[slot] = RowIds.pack(pageIndex, slot);
            }
            tellRemoved(page, slots, rowIds, count, scratch, listener);
        }
    }

    /**
     * Installs the new pages in place of the old ones. The new array is at least as long as the
     * old one, so an unregistered reader that read the old page count finds holes, never an index
     * past the array; the old pages are retired for the RCU grace period.
     */
    private void publishRewrite(NativePage[] oldPages, int oldCount, List<NativePage> newPages) {
        NativePage[] array = new NativePage[Math.max(oldPages.length, Math.max(8, newPages.size()))];
        long[] addresses = new long[array.length];
        for (int index = 0; index < newPages.size(); index++) {
            array[index] = newPages.get(index);
            addresses[index] = array[index].segment().address();
        }
        for (int index = 0; index < oldCount; index++) {
            if (oldPages[index] != null) {
                retiredPages.add(oldPages[index]);
            }
        }
        pageCount = Math.min(oldCount, newPages.size());
        pageAddresses = addresses;
        pages = array;
        pageCount = newPages.size();
        deadRowCount = 0;
        if (hugePagesWanted) {
            // Every page is new: name them all again.
            hugePagesOfferedTo = 0;
            offerNewPagesForHugePages();
        }
    }

    private int[] allColumns() {
        int[] columns = new int[columnCount];
        for (int column = 0; column < columnCount; column++) {
            columns[column] = column;
        }
        return columns;
    }

    /**
     * Frees the pages {@link #compactPage} replaced, once no reader can still be reading them: the
     * read epoch is advanced and the readers of the previous one are waited for (each holds a page
     * for one {@link #readPage} or {@link #readRows} call, so the wait is short). Returns the number
     * of pages freed. Called by the vacuum, never by readers.
     */
    public int reclaimRetiredPages() {
        List<NativePage> reclaimed;
        reclaimLock.lock();
        try {
            synchronized (writeLock()) {
                if (retiredPages.isEmpty()) {
                    return 0;
                }
                reclaimed = new ArrayList<>(retiredPages);
                retiredPages.clear();
            }
            awaitRegisteredReaders();
        } finally {
            reclaimLock.unlock();
        }
        // Outside the write lock: no list holds these pages any more (close() cannot free them twice),
        // and freeing may close a slab (a handshake with every thread), which writers and other
        // VACUUM participants of this table should not wait for (JFR: 16 ms).
        for (NativePage page : reclaimed) {
            allocator.free(page);
        }
        return reclaimed.size();
    }

    /**
     * Returns once every page read registered before the call ({@link #enterRead}) has ended: pages
     * no reader can reach any more (unlinked before the call) may then be freed. The caller holds
     * {@link #reclaimLock} or the write lock (close(): no flip of another reclaimer can come between
     * its two flips, which need the write lock).
     */
    private void awaitRegisteredReaders() {
        // Two flips: a reader registered in either parity before the first flip has finished after the second wait.
        for (int flip = 0; flip < 2; flip++) {
            int previousParity = flipReadEpoch();
            int spins = 0;
            while (readers(previousParity) != 0) {
                if (++spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
    }

    /**
     * {@link #reclaimRetiredPages} for a VACUUM participant after each page it compacted, without
     * waiting: frees the retired pages when no reader is inside a page read that may have fetched
     * one (else leaves them all retired, for the next call or the owner's {@link #reclaimRetiredPages},
     * and returns 0), and keeps the most recently retired one as {@code buffers}' spare page when
     * they have none. The participant's next compacted copy is then written over the page it has
     * just read, still in its core's cache: the copy's stores no longer fetch their lines from
     * memory first, about a third of the bytes a compaction moved through memory (VacuumBenchmark's
     * pages: ~62 KB read, ~48 KB written). Returns the pages freed or kept.
     */
    public int recycleRetiredPages(CompactionBuffers buffers) {
        // Another participant reclaiming this table's pages now: leave ours to it, or to the next call.
        if (!reclaimLock.tryLock()) {
            return 0;
        }
        List<NativePage> taken = buffers.recycled;
        try {
            synchronized (writeLock()) {
                if (retiredPages.isEmpty()) {
                    return 0;
                }
                taken.addAll(retiredPages);
                retiredPages.clear();
            }
            // reclaimRetiredPages' two flips, each followed by a look instead of a wait.
            for (int flip = 0; flip < 2; flip++) {
                if (readers(flipReadEpoch()) != 0) {
                    // A reader may still hold one of them: they stay retired (close() frees them if need be).
                    synchronized (writeLock()) {
                        retiredPages.addAll(taken);
                    }
                    taken.clear();
                    return 0;
                }
            }
        } finally {
            reclaimLock.unlock();
        }
        int count = taken.size();
        int keep = buffers.spare == null ? count - 1 : -1;
        for (int index = 0; index < count; index++) {
            if (index == keep) {
                buffers.spare = taken.get(index);
            } else {
                allocator.free(taken.get(index));
            }
        }
        taken.clear();
        return count;
    }

    /** Advances the read epoch; returns the parity of the epoch it ended. The caller holds {@link #reclaimLock}. */
    private int flipReadEpoch() {
        synchronized (writeLock()) {
            int previousParity = readEpoch & 1;
            readEpoch = readEpoch + 1;
            return previousParity;
        }
    }

    /** Pages retired by {@link #compactPage} and not yet freed. */
    public int retiredPageCount() {
        synchronized (writeLock()) {
            return retiredPages.size();
        }
    }

    /**
     * Reads the row slots {@code slots[0..count)} of page {@code pageIndex}, deleted ones included,
     * into {@code target} ({@code target}'s column i receives table column {@code columns[i]}).
     * Meant for VACUUM's listener, which reads the keys of moved and dead rows before the page is
     * replaced.
     */
    public int readSlots(int pageIndex, int[] slots, int count, int[] columns, Batch target) {
        int epochSlot = enterRead();
        try {
            MemorySegment page = publishedPage(pageIndex);
            target.reset();
            target.ensureCapacity(count);
            for (int column = 0; column < columns.length; column++) {
                readColumnRows(page, columns[column], slots, count, target.column(column), 0);
            }
            target.setRowCount(count);
            return count;
        } finally {
            exitRead(epochSlot);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Reading: the hot path of every scan

    @Override
    public ScanCursor openScan(int chunkPages) {
        return new ChunkedScanCursor(openSnapshot(SnapshotUse.SCAN), chunkPages);
    }

    @Override
    public OpenSnapshot openSnapshot(SnapshotUse use) {
        Objects.requireNonNull(use, "use");
        return openSnapshots.register(use, this::openTableSnapshot);
    }

    /**
     * The snapshot a scan registers: refused once the storage is closed, so that a statement planned
     * before its table was dropped or rewritten ({@link #exclusivelyWithoutScans}) fails instead of
     * reading an empty table. Read under the registry's monitor, which the closing ALTER TABLE held.
     */
    private ScanSnapshot openTableSnapshot() {
        ensureOpen();
        return snapshot();
    }

    @Override
    public long relocations() {
        return relocations;
    }

    @Override
    public int readPage(int pageIndex, int[] columns, Batch target) {
        return readPage(pageIndex, columns, target, null, null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A page without dead slots (the common case) is copied column by column in bulk; otherwise
     * the visible slots are listed once per page read (one array per page, never per row). A hole
     * left by VACUUM reads as empty.
     */
    @Override
    public int readPage(int pageIndex, int[] columns, Batch target, ScanSnapshot snapshot, int[] slotsOut) {
        int epochSlot = enterRead();
        try {
            MemorySegment page = pageForScan(pageIndex);
            if (page == null) {
                target.reset();
                target.setRowCount(0);
                return 0;
            }
            return readLivePage(page, pageIndex, columns, target, snapshot, slotsOut);
        } finally {
            exitRead(epochSlot);
        }
    }

    private int readLivePage(MemorySegment page, int pageIndex, int[] columns, Batch target, ScanSnapshot snapshot, int[] slotsOut) {
        int rows = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
        if (snapshot != null && pageIndex >= snapshot.pageCount() - 1) {
            // Slots appended after the snapshot are newer than the scan.
            rows = pageIndex >= snapshot.pageCount() ? 0 : Math.min(rows, snapshot.lastPageSlots());
        }
        target.reset();
        target.ensureCapacity(rows);
        if (page.get(INT, PageLayout.DEAD_COUNT_OFFSET) == 0) {
            for (int index = 0; index < columns.length; index++) {
                readColumn(page, columns[index], rows, target.column(index));
            }
            if (slotsOut != null) {
                for (int row = 0; row < rows; row++) {
                    slotsOut[row] = row;
                }
            }
            target.setRowCount(rows);
            return rows;
        }
        int[] live = slotsOut != null ? slotsOut : new int[rows];
        int liveCount = 0;
        // Rows that died up to this sequence are gone for this scan; later deaths it still sees.
        long invisibleDeaths = snapshot == null ? Long.MAX_VALUE : snapshot.sequence();
        for (int first = 0; first < rows; first += 64) {
            long dead = deadBits(page, first >>> 6, rows);
            // Read after the word (acquire): at least as young as every death whose bit was seen.
            if (dead != 0 && page.get(LONG, PageLayout.NEWEST_DEATH_OFFSET) > invisibleDeaths) {
                dead = deathsUpTo(page, first, dead, invisibleDeaths);
            }
            int end = Math.min(rows, first + 64);
            for (int row = first; row < end; row++) {
                live[liveCount] = row;
                liveCount += (int) (~dead >>> row) & 1;
            }
        }
        for (int index = 0; index < columns.length; index++) {
            readColumnRows(page, columns[index], live, liveCount, target.column(index));
        }
        target.setRowCount(liveCount);
        return liveCount;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Consecutive row ids on the same page are read as one run (one slot array per call, never
     * per row). Dead slots are read as they are: an index built before the row died still
     * addresses it, and VACUUM has not reclaimed it while the index is held.
     */
    @Override
    public int readRows(long[] rowIds, int from, int count, int[] columns, Batch target) {
        int epochSlot = enterRead();
        try {
            return readRowsRegistered(rowIds, from, count, columns, target);
        } finally {
            exitRead(epochSlot);
        }
    }

    private int readRowsRegistered(long[] rowIds, int from, int count, int[] columns, Batch target) {
        target.reset();
        target.ensureCapacity(count);
        int[] slots = new int[count];
        int end = from + count;
        int written = 0;
        int index = from;
        while (index < end) {
            int pageIndex = (int) (rowIds[index] >>> 32);
            MemorySegment page = publishedPage(pageIndex);
            int rows = (int) ROW_COUNT.getAcquire(page, PageLayout.ROW_COUNT_OFFSET);
            int runCount = 0;
            while (index < end && (int) (rowIds[index] >>> 32) == pageIndex) {
                int row = (int) rowIds[index];
                if (row < 0 || row >= rows) {
                    throw new IndexOutOfBoundsException("row " + row + " of page " + pageIndex + " holding " + rows + " rows");
                }
                slots[runCount++] = row;
                index++;
            }
            for (int column = 0; column < columns.length; column++) {
                readColumnRows(page, columns[column], slots, runCount, target.column(column), written);
            }
            written += runCount;
        }
        target.setRowCount(written);
        return written;
    }

    @Override
    public int retainVisible(long[] rowIds, int from, int count, ScanSnapshot snapshot) {
        if (snapshot == null) {
            return count;
        }
        int epochSlot = enterRead();
        try {
            long stamps = layout.deletionStampsOffset();
            int lastPage = snapshot.pageCount() - 1;
            int kept = 0;
            for (int index = from; index < from + count; index++) {
                long rowId = rowIds[index];
                int pageIndex = RowIds.pageIndex(rowId);
                int row = RowIds.row(rowId);
                if (pageIndex > lastPage || (pageIndex == lastPage && row >= snapshot.lastPageSlots())) {
                    continue; // appended after the snapshot
                }
                MemorySegment page = pageForScan(pageIndex);
                if (page == null) {
                    continue;
                }
                // Dead after the snapshot was taken: still visible to its reader.
                if (!deadBit(page, row) || page.get(LONG, stamps + 8L * row) > snapshot.sequence()) {
                    rowIds[from + kept++] = rowId;
                }
            }
            return kept;
        } finally {
            exitRead(epochSlot);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The point query's read: the page's address is taken from {@link #pageAddresses} (no page
     * object is touched), its published row count checked and the row read from that same page
     * under one read registration, so the page cannot be freed meanwhile (and a compaction
     * replacing it is seen by the caller's relocation check). Allocates nothing.
     */
    @Override
    public boolean readPublishedRow(long rowId, int[] columns, Batch target) {
        // Before the page's first miss: the row's loads then follow it closely enough for the
        // processor to have them all in flight at once (A/B in one JVM: 54 ns less per point select).
        target.reset();
        target.ensureCapacity(1);
        int epochSlot = enterRead();
        try {
            int pageIndex = RowIds.pageIndex(rowId);
            if (pageIndex < 0) {
                throw new IndexOutOfBoundsException("page " + pageIndex);
            }
            if (pageIndex >= pageCount) {
                return false;
            }
            // Read after the page count: the array in use when that count was published, or a later one.
            long page = (long) ADDRESS_SLOT.getAcquire(pageAddresses, pageIndex);
            int row = RowIds.row(rowId);
            if (page == 0 || row < 0 || row >= (int) ROW_COUNT.getAcquire(MEMORY, page + PageLayout.ROW_COUNT_OFFSET)) {
                return false;
            }
            readRowValues(page, pageIndex, row, columns, target);
            target.setRowCount(1);
            return true;
        } finally {
            exitRead(epochSlot);
        }
    }

    /**
     * Reads slot {@code row}'s columns of page {@code pageIndex}, at address {@code page}, into
     * position 0 of {@code target}'s vectors in two passes: first every fixed-width value,
     * variable-width offset and length and null bit, whose addresses are all known up front, and
     * the line where each variable-width value probably is ({@link HeapPositionHints}), so that
     * their cache misses (one per column area on a random row) are in flight together; then the
     * variable-width bytes, whose address the first pass loaded. Reading column by column instead
     * waited for each column's miss in turn (the row read was most of a point query).
     */
    private void readRowValues(long page, int pageIndex, int row, int[] columns, Batch target) {
        boolean variable = false;
        long[] hints = heapHints;
        long guessedLines = 0;
        for (int index = 0; index < columns.length; index++) {
            int column = columns[index];
            ColumnVector vector = target.column(index);
            long data = page + layout.dataOffset(column);
            switch (layout.storageKind(column)) {
                case STORAGE_LONG -> ((LongVector) vector).values()[0] = MEMORY.get(LONG, data + 8L * row);
                case STORAGE_DOUBLE -> ((DoubleVector) vector).values()[0] = MEMORY.get(DOUBLE, data + 8L * row);
                case STORAGE_INT -> ((LongVector) vector).values()[0] = MEMORY.get(INT, data + 4L * row);
                case STORAGE_SHORT -> ((LongVector) vector).values()[0] = MEMORY.get(SHORT, data + 2L * row);
                case STORAGE_BYTE -> ((LongVector) vector).values()[0] = MEMORY.get(BYTE, data + row);
                case STORAGE_FLOAT -> ((DoubleVector) vector).values()[0] = MEMORY.get(FLOAT, data + 4L * row);
                case STORAGE_VARIABLE -> {
                    BytesVector bytes = (BytesVector) vector;
                    bytes.offsets()[0] = MEMORY.get(INT, data + 4L * row);
                    bytes.lengths()[0] = MEMORY.get(INT, page + layout.lengthsOffset(column) + 4L * row);
                    guessedLines += loadGuessedValueLines(page, HeapPositionHints.hint(hints,
                            HeapPositionHints.index(pageIndex, columnCount, column)), row);
                    variable = true;
                }
                default -> throw new IllegalStateException("unknown storage kind");
            }
            if (MEMORY.get(INT, page + layout.nullCountOffset(column)) != 0
                    && (MEMORY.get(BYTE, page + layout.nullBitmapOffset(column) + (row >>> 3)) & (1 << (row & 7))) != 0) {
                vector.nulls()[0] = true;
                vector.markMayHaveNulls();
            }
        }
        if (!variable) {
            return;
        }
        keep(guessedLines);
        for (int index = 0; index < columns.length; index++) {
            if (layout.storageKind(columns[index]) == STORAGE_VARIABLE) {
                BytesVector bytes = (BytesVector) target.column(index);
                if (bytes.isNull(0)) {
                    // reserve() would clear the null flag: a NULL holds no bytes.
                    bytes.offsets()[0] = 0;
                    bytes.lengths()[0] = 0;
                    continue;
                }
                int pageOffset = bytes.offsets()[0];
                int length = bytes.lengths()[0];
                int at = bytes.reserve(0, length);
                MemorySegment.copy(MEMORY, BYTE, page + pageOffset, bytes.data(), at, length);
                long hintIndex = HeapPositionHints.index(pageIndex, columnCount, columns[index]);
                long hint = HeapPositionHints.hint(hints, hintIndex);
                if (!HeapPositionHints.onPredictedLine(HeapPositionHints.predictedOffset(hint, row), pageOffset)) {
                    long[] updated = HeapPositionHints.with(hints, hintIndex,
                            HeapPositionHints.learned(hint, row, pageOffset, layout.pageSizeBytes()));
                    if (updated != hints) {
                        heapHints = updated;
                        hints = updated;
                    }
                }
            }
        }
    }

    /**
     * Loads the line (or two) of the page at address {@code page} where {@code hint} guesses slot
     * {@code row}'s value lies, and returns what it loaded for the caller to {@link #keep}: a load
     * whose value is unused would be dropped. A guess outside the page loads nothing.
     */
    private long loadGuessedValueLines(long page, long hint, int row) {
        long guess = HeapPositionHints.predictedOffset(hint, row);
        int pageSize = layout.pageSizeBytes();
        if (guess < 0 || guess >= pageSize) {
            return 0;
        }
        long line = guess & -CACHE_LINE_BYTES;
        long loaded = MEMORY.get(LONG, page + line);
        if ((guess & (CACHE_LINE_BYTES - 1)) + HeapPositionHints.predictedLength(hint) > CACHE_LINE_BYTES
                && line + CACHE_LINE_BYTES < pageSize) {
            loaded += MEMORY.get(LONG, page + line + CACHE_LINE_BYTES);
        }
        return loaded;
    }

    /** Copies slots {@code 0..rows} of one column: bulk copies and tight widening loops. */
    private void readColumn(MemorySegment page, int column, int rows, ColumnVector vector) {
        long data = layout.dataOffset(column);
        switch (layout.storageKind(column)) {
            case STORAGE_LONG -> MemorySegment.copy(page, LONG, data, ((LongVector) vector).values(), 0, rows);
            case STORAGE_DOUBLE -> MemorySegment.copy(page, DOUBLE, data, ((DoubleVector) vector).values(), 0, rows);
            case STORAGE_INT -> {
                long[] values = ((LongVector) vector).values();
                MemorySegment slice = page.asSlice(data, 4L * rows);
                for (int row = 0; row < rows; row++) {
                    values[row] = slice.getAtIndex(INT, row);
                }
            }
            case STORAGE_SHORT -> {
                long[] values = ((LongVector) vector).values();
                MemorySegment slice = page.asSlice(data, 2L * rows);
                for (int row = 0; row < rows; row++) {
                    values[row] = slice.getAtIndex(SHORT, row);
                }
            }
            case STORAGE_BYTE -> {
                long[] values = ((LongVector) vector).values();
                MemorySegment slice = page.asSlice(data, rows);
                for (int row = 0; row < rows; row++) {
                    values[row] = slice.get(BYTE, row);
                }
            }
            case STORAGE_FLOAT -> {
                double[] values = ((DoubleVector) vector).values();
                MemorySegment slice = page.asSlice(data, 4L * rows);
                for (int row = 0; row < rows; row++) {
                    values[row] = slice.getAtIndex(FLOAT, row);
                }
            }
            case STORAGE_VARIABLE -> readVariableColumn(page, column, rows, (BytesVector) vector);
            default -> throw new IllegalStateException("unknown storage kind");
        }
        if (page.get(INT, layout.nullCountOffset(column)) != 0) {
            readNulls(page, column, rows, vector);
        }
    }

    private void readNulls(MemorySegment page, int column, int rows, ColumnVector vector) {
        long bitmap = layout.nullBitmapOffset(column);
        boolean[] nulls = vector.nulls();
        boolean any = false;
        for (int row = 0; row < rows; row++) {
            boolean isNull = bit(page, bitmap, row);
            nulls[row] = isNull;
            any |= isNull;
        }
        if (any) {
            vector.markMayHaveNulls();
        }
    }

    /**
     * Text and bit strings: the offset and length arrays are bulk-copied; when the column's values
     * lie close together (always, for rows written by one append) their bytes are copied in one
     * piece too, and offsets are rebased with a vectorisable loop.
     */
    private void readVariableColumn(MemorySegment page, int column, int rows, BytesVector vector) {
        if (rows == 0) {
            return;
        }
        int[] offsets = vector.offsets();
        int[] lengths = vector.lengths();
        MemorySegment.copy(page, INT, layout.dataOffset(column), offsets, 0, rows);
        MemorySegment.copy(page, INT, layout.lengthsOffset(column), lengths, 0, rows);
        int lowest = Integer.MAX_VALUE;
        int highestEnd = 0;
        long total = 0;
        for (int row = 0; row < rows; row++) {
            int offset = offsets[row];
            int end = offset + lengths[row];
            lowest = Math.min(lowest, offset);
            highestEnd = Math.max(highestEnd, end);
            total += lengths[row];
        }
        int span = highestEnd - lowest;
        if (span <= total + (total >>> 1) + 64) {
            // reserve() claims the bytes but also overwrites position 0's entry: keep and restore it.
            int firstOffset = offsets[0];
            int firstLength = lengths[0];
            int base = vector.reserve(0, span);
            offsets[0] = firstOffset;
            lengths[0] = firstLength;
            MemorySegment.copy(page, BYTE, lowest, vector.data(), base, span);
            int shift = base - lowest;
            for (int row = 0; row < rows; row++) {
                offsets[row] += shift;
            }
        } else {
            for (int row = 0; row < rows; row++) {
                int pageOffset = offsets[row];
                int length = lengths[row];
                int at = vector.reserve(row, length);
                MemorySegment.copy(page, BYTE, pageOffset, vector.data(), at, length);
            }
        }
    }

    /** The slow path: copies only the listed slots, compacting them to positions {@code 0..count}. */
    private void readColumnRows(MemorySegment page, int column, int[] slots, int count, ColumnVector vector) {
        readColumnRows(page, column, slots, count, vector, 0);
    }

    /** Copies slots {@code slots[0..count)} of one column to positions {@code outputOffset..} of {@code vector}. */
    private void readColumnRows(MemorySegment page, int column, int[] slots, int count, ColumnVector vector, int outputOffset) {
        long data = layout.dataOffset(column);
        switch (layout.storageKind(column)) {
            case STORAGE_LONG -> {
                long[] values = ((LongVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.getAtIndex(LONG, (data >>> 3) + slots[index]);
                }
            }
            case STORAGE_DOUBLE -> {
                double[] values = ((DoubleVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.get(DOUBLE, data + 8L * slots[index]);
                }
            }
            case STORAGE_INT -> {
                long[] values = ((LongVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.get(INT, data + 4L * slots[index]);
                }
            }
            case STORAGE_SHORT -> {
                long[] values = ((LongVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.get(SHORT, data + 2L * slots[index]);
                }
            }
            case STORAGE_BYTE -> {
                long[] values = ((LongVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.get(BYTE, data + slots[index]);
                }
            }
            case STORAGE_FLOAT -> {
                double[] values = ((DoubleVector) vector).values();
                for (int index = 0; index < count; index++) {
                    values[outputOffset + index] = page.get(FLOAT, data + 4L * slots[index]);
                }
            }
            case STORAGE_VARIABLE -> {
                BytesVector bytes = (BytesVector) vector;
                long lengthsArea = layout.lengthsOffset(column);
                for (int index = 0; index < count; index++) {
                    int pageOffset = page.get(INT, data + 4L * slots[index]);
                    int length = page.get(INT, lengthsArea + 4L * slots[index]);
                    int at = bytes.reserve(outputOffset + index, length);
                    MemorySegment.copy(page, BYTE, pageOffset, bytes.data(), at, length);
                }
            }
            default -> throw new IllegalStateException("unknown storage kind");
        }
        if (page.get(INT, layout.nullCountOffset(column)) != 0) {
            long bitmap = layout.nullBitmapOffset(column);
            boolean[] nulls = vector.nulls();
            boolean any = false;
            for (int index = 0; index < count; index++) {
                boolean isNull = bit(page, bitmap, slots[index]);
                nulls[outputOffset + index] = isNull;
                any |= isNull;
            }
            if (any) {
                vector.markMayHaveNulls();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------

    @Override
    public void close() {
        synchronized (writeLock()) {
            if (closed) {
                return;
            }
            closed = true;
            NativePage[] pageArray = pages;
            int count = pageCount;
            pageCount = 0;
            liveRowCount = 0;
            deadRowCount = 0;
            // A point read (readPublishedRow) may hold a page's address: let it finish before the page
            // can be unmapped. Reads registering from now on see no page.
            awaitRegisteredReaders();
            long[] addresses = pageAddresses;
            for (int index = 0; index < count; index++) {
                addresses[index] = 0;
                if (pageArray[index] != null) {
                    allocator.free(pageArray[index]);
                    pageArray[index] = null;
                }
            }
            for (NativePage page : retiredPages) {
                allocator.free(page);
            }
            retiredPages.clear();
            deadRowCount = 0;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw ParallaxException.of(SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: the table was dropped or altered by a concurrent statement");
        }
    }
    }
