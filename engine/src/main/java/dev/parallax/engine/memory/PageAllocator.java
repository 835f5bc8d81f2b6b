package dev.parallax.engine.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands out fixed-size off-heap pages carved from slabs of many pages: one
 * {@link MemoryManager#allocate} (tag {@link MemoryTag#PAGES}) per slab instead of one per page,
 * so a table of thousands of pages costs a handful of arenas. Freed pages are reused before a new
 * slab is taken; a slab whose pages are all free goes back to the memory manager at once, so
 * dropping a table returns its memory to the budget, unless a {@link #holdEmptySlabs hold} is
 * open (VACUUM's), which keeps such slabs for reuse until it closes.
 * <p>
 * {@link #allocate()} hands pages out zeroed; {@link #allocateForOverwrite()} leaves a reused
 * page's old bytes for callers that write everything they later read (VACUUM's compacted copies:
 * the 128 KiB fill was a quarter of a compaction's CPU time in a JFR profile of VacuumBenchmark).
 * Thread-safe: one short critical section per page. Everything slow happens outside it: zeroing a
 * reused page, taking a new slab from the memory manager (an 8 MiB zeroed allocation, page faults
 * included) and closing an empty one (closing a shared arena is a handshake with every thread).
 * JFR showed parallel VACUUM participants waiting 10–25 ms on this monitor while the other one
 * took or closed a slab inside it.
 * <p>
 * An allocator may keep up to {@code retainedSlabsLimit} emptied slabs mapped instead of closing
 * them, their bytes given back to the memory budget meanwhile, and take those before mapping new
 * ones: a table dropped and filled again (a statement's target emptied before each run, a scratch
 * table) then reuses memory the kernel already handed out, where each fresh slab costs a page
 * fault per 4 KiB and the kernel's zeroing (0.8 s of CPU per GiB on this project's VM: a third of
 * the CPU time of INSERT ... SELECT of 10M md5 texts, SortQueryBenchmark.md5TextIntoTableUnordered,
 * kernel time from CpuTimeProfiler), against a 128 KiB fill per reused page. Retained slabs are
 * outside the budget, so the process may hold that much more than the limit; a database keeps at
 * most an eighth of its limit, and 1 GiB, that way ({@link #forDatabase}).
 * <p>
 * Slabs start on ordinary pages ({@link MemoryManager#allocate}). The owner of long-lived pages
 * that are read at random (a table with an index) names them with {@link #preferHugePages}; each
 * slab holding such a page moves onto huge pages once all its pages are handed out, on a background
 * thread, so that neither the statement that filled it nor the next one waits for the copy.
 * <p>
 * The pages of a slab do not lie back to back: page {@code i} starts {@code i * PAGE_STAGGER} bytes
 * after {@code i} whole pages (page colouring). Why: pages are a power of two apart otherwise, and
 * tables filled evenly (the 1024 partitions of a hash-partitioned table, each appending at about
 * the same slot of its tail page) then touch the same offsets in every tail page at once; on a
 * huge page those lines differ only in the address bits above the caches' set index, so they
 * crowd into the same few sets of each cache and evict each other while the whole working set
 * would fit. UpsertBenchmark on {@code p}, one thread, three forks each, alternating (a build with
 * the stagger switchable): 297k, 328k, 312k upserts/s with back-to-back pages, 408k, 373k, 394k
 * staggered (CPU per upsert 2.9–3.2 against 2.3–2.6 µs). The price: one page less per 8 MiB slab
 * (1.5% of the memory mapped for pages).
 */
public final class PageAllocator implements AutoCloseable {
    /**
     * Pages per slab unless told otherwise: at the default 128 KiB page, with the pages staggered
     * ({@link #PAGE_STAGGER}), a slab still fits in 8 MiB, four huge pages.
     */
    public static final int DEFAULT_PAGES_PER_SLAB = 63;
    /** Bytes by which each page of a slab starts later than the one before it ends (see the class comment): one cache line. */
    public static final int PAGE_STAGGER = 64;
    /** Pages and page offsets are addressed with ints; slices are 64-byte aligned. */
    private static final int PAGE_ALIGNMENT = 64;

    private final MemoryManager memory;
    private final int pageSizeBytes;
    private final int pagesPerSlab;
    /** Runs {@link NativeBlock#preferHugePages()} of the slabs that qualify. */
    private final Executor hugePageWork;
    /** Slabs that have at least one free page; the most recently freed-into slab is served first. */
    private final ArrayDeque<Slab> slabsWithFreePages = new ArrayDeque<>();
    private final List<Slab> slabs = new ArrayList<>();
    /** Emptied slabs kept mapped for reuse, their bytes outside the budget; the most recent first. */
    private final ArrayDeque<Slab> retainedSlabs = new ArrayDeque<>();
    private final int retainedSlabsLimit;
    private int pagesInUse;
    /** Open {@link #holdEmptySlabs} holds: while positive, emptied slabs stay listed for reuse. */
    private int emptySlabHolds;
    private boolean closed;

    public PageAllocator(MemoryManager memory, int pageSizeBytes) {
        this(memory, pageSizeBytes, DEFAULT_PAGES_PER_SLAB);
    }

    public PageAllocator(MemoryManager memory, int pageSizeBytes, int pagesPerSlab) {
        this(memory, pageSizeBytes, pagesPerSlab, HugePageThread.executor());
    }

    /**
     * An allocator whose moves onto huge pages ({@link #preferHugePages}) run on {@code hugePageWork}
     * (tests pass {@code Runnable::run} to see them done on return); the other constructors use
     * one shared background thread.
     */
    public PageAllocator(MemoryManager memory, int pageSizeBytes, int pagesPerSlab, Executor hugePageWork) {
        this(memory, pageSizeBytes, pagesPerSlab, hugePageWork, 0);
    }

    /**
     * An allocator that keeps up to {@code retainedSlabsLimit} emptied slabs mapped for reuse (see
     * the class comment); the other constructors keep none.
     */
    public PageAllocator(MemoryManager memory, int pageSizeBytes, int pagesPerSlab, Executor hugePageWork, int retainedSlabsLimit) {
        if (retainedSlabsLimit < 0) {
            throw new IllegalArgumentException("retained slabs must not be negative: " + retainedSlabsLimit);
        }
        this.retainedSlabsLimit = retainedSlabsLimit;
        this.hugePageWork = Objects.requireNonNull(hugePageWork, "hugePageWork");
        this.memory = Objects.requireNonNull(memory, "memory");
        if (pageSizeBytes < PAGE_ALIGNMENT || pageSizeBytes % PAGE_ALIGNMENT != 0) {
            throw new IllegalArgumentException("page size must be a positive multiple of " + PAGE_ALIGNMENT + ": " + pageSizeBytes);
        }
        if (pagesPerSlab < 1) {
            throw new IllegalArgumentException("pages per slab must be positive: " + pagesPerSlab);
        }
        this.pageSizeBytes = pageSizeBytes;
        this.pagesPerSlab = pagesPerSlab;
    }

    /**
     * The allocator of a database's tables: default slabs, huge pages moved on the shared background
     * thread, and emptied slabs retained up to an eighth of the memory limit and at most 1 GiB.
     */
    public static PageAllocator forDatabase(MemoryManager memory, int pageSizeBytes) {
        long slabBytes = slabBytes(pageSizeBytes, DEFAULT_PAGES_PER_SLAB);
        long retainedBytes = Math.min(memory.limitBytes() / 8, 1L << 30);
        return new PageAllocator(memory, pageSizeBytes, DEFAULT_PAGES_PER_SLAB, HugePageThread.executor(),
                (int) Math.min(Integer.MAX_VALUE, retainedBytes / slabBytes));
    }

    /** The bytes of a slab of {@code pages} pages of {@code pageSizeBytes}, staggered. */
    static long slabBytes(int pageSizeBytes, int pages) {
        return (long) pages * (pageSizeBytes + PAGE_STAGGER);
    }

    public int pageSizeBytes() {
        return pageSizeBytes;
    }

    public int pagesPerSlab() {
        return pagesPerSlab;
    }

    public MemoryManager memory() {
        return memory;
    }

    /**
     * Returns a zeroed page. When no slab has a free page a new slab is allocated; if the memory
     * limit forbids it the memory manager's 53200 error is thrown and nothing changes.
     */
    public NativePage allocate() {
        NativePage page = take();
        if (page.heldOldBytes()) {
            // Fresh slabs come zeroed from the memory manager; reused pages carry their last owner's
            // bytes. The page is the caller's alone now: no lock needed to clear it.
            page.segment().fill((byte) 0);
        }
        return page;
    }

    /**
     * Like {@link #allocate()}, but a reused page keeps its previous owner's bytes: for a caller
     * that writes every byte it, or a later reader, reads (header included).
     */
    public NativePage allocateForOverwrite() {
        return take();
    }

    private NativePage take() {
        NativePage page = takeFromFreeSlab();
        if (page == null) {
            page = takeFromRetainedSlab();
        }
        if (page == null) {
            // Outside the monitor: other threads keep taking and freeing pages meanwhile. Two threads
            // that both found every slab full add a slab each; both slabs get used.
            NativeBlock block = memory.allocate(MemoryTag.PAGES, slabBytes(pageSizeBytes, pagesPerSlab));
            page = addSlabAndTake(new Slab(this, block, pageSizeBytes, pagesPerSlab));
        }
        return page;
    }

    /** A free page of an existing slab, or null when every slab is full. */
    private synchronized NativePage takeFromFreeSlab() {
        ensureOpen();
        Slab slab = slabsWithFreePages.peekFirst();
        return slab == null ? null : takeFrom(slab);
    }

    /**
     * A page of a retained slab, charged to the budget again (53200 when the limit forbids, the slab
     * staying retained), or null when none is retained.
     */
    private synchronized NativePage takeFromRetainedSlab() {
        ensureOpen();
        Slab slab = retainedSlabs.peekFirst();
        if (slab == null) {
            return null;
        }
        slab.block.reacquireReservation();
        retainedSlabs.pollFirst();
        slabs.add(slab);
        slabsWithFreePages.addFirst(slab);
        return takeFrom(slab);
    }

    /**
     * Takes an emptied slab out of use (it is no longer listed): keeps it retained when there is
     * room, its bytes back in the budget, and returns null; else returns it for the caller to close
     * outside the monitor. Under the monitor.
     */
    private Slab retireEmptySlab(Slab slab) {
        if (retainedSlabs.size() < retainedSlabsLimit) {
            slab.block.releaseReservation();
            retainedSlabs.addFirst(slab);
            return null;
        }
        return slab;
    }

    private NativePage addSlabAndTake(Slab slab) {
        synchronized (this) {
            if (!closed) {
                slabs.add(slab);
                slabsWithFreePages.addFirst(slab);
                return takeFrom(slab);
            }
        }
        slab.block.close();
        throw new IllegalStateException("page allocator is closed");
    }

    /** Takes a page of {@code slab}, which is the first of {@link #slabsWithFreePages}. */
    private NativePage takeFrom(Slab slab) {
        NativePage page = slab.takeFreePage();
        if (slab.freeCount == 0) {
            slabsWithFreePages.pollFirst();
            if (slab.hugePagesWanted) {
                requestHugePages(slab);
            }
        }
        pagesInUse++;
        return page;
    }

    /**
     * Names pages, {@code pages[from, to)}, that will live long and be read at random: the pages of
     * a table with an index, after the statement that wrote them (null elements are skipped). Each
     * slab holding one of them moves onto huge pages ({@link NativeBlock#preferHugePages()}), in
     * the background, once all its pages are handed out: at once if they are, else when its last
     * free page is taken. A slab partly free is still being filled, or holds pages that come and go.
     * Cheap: the slabs are only marked here. Pages of another allocator are ignored.
     */
    public synchronized void preferHugePages(NativePage[] pages, int from, int to) {
        if (closed) {
            return;
        }
        Slab previous = null;
        for (int index = from; index < to; index++) {
            NativePage page = pages[index];
            if (page == null || page.slab() == previous || page.slab().owner != this) {
                continue;
            }
            Slab slab = page.slab();
            previous = slab;
            if (!slab.hugePagesWanted) {
                slab.hugePagesWanted = true;
                if (slab.freeCount == 0) {
                    requestHugePages(slab);
                }
            }
        }
    }

    /** Queues the move of a full, wanted slab onto huge pages (once per slab); under the monitor. */
    private void requestHugePages(Slab slab) {
        if (!slab.hugePagesRequested) {
            slab.hugePagesRequested = true;
            // Closing the block meanwhile is safe: preferHugePages holds the block's monitor and
            // does nothing once the block is closed.
            NativeBlock block = slab.block;
            hugePageWork.execute(block::preferHugePages);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("page allocator is closed");
        }
    }

    /** Gives a page back. Freeing a page twice, or a page of another allocator, is a programming error. */
    public void free(NativePage page) {
        Slab emptied;
        synchronized (this) {
            Slab slab = page.slab();
            if (slab.owner != this || closed) {
                if (closed) {
                    return; // the slabs are already gone; nothing left to free
                }
                throw new IllegalArgumentException("page does not belong to this allocator");
            }
            if (slab.isFree(page.indexInSlab())) {
                throw new IllegalStateException("page freed twice");
            }
            boolean slabWasFull = slab.freeCount == 0;
            slab.release(page.indexInSlab());
            pagesInUse--;
            emptied = null;
            if (slab.freeCount == pagesPerSlab && emptySlabHolds == 0) {
                slabsWithFreePages.remove(slab);
                slabs.remove(slab);
                emptied = retireEmptySlab(slab);
            } else if (slabWasFull) {
                slabsWithFreePages.addFirst(slab);
            }
        }
        if (emptied != null) {
            // No page of it is handed out and it is no longer listed: nobody else can reach it.
            emptied.block.close();
        }
    }

    /**
     * Keeps the slabs whose pages all become free, listed for reuse, until the returned hold (and
     * every other one open) is closed; then each slab still empty goes back to the memory manager.
     * For VACUUM, which frees a table's old pages while it takes new ones for the compacted copies:
     * closing a slab's shared arena is a handshake with every Java thread, which stopped the other
     * participant of a parallel VACUUM mid-copy (JFR, VacuumBenchmark: 4 to 6 slab closes per run,
     * up to 25 ms each on a loaded machine), and a slab closed mid-VACUUM was soon allocated again,
     * its 8 MiB zeroed and page-faulted anew. Holds nest and may be closed on any thread.
     */
    public EmptySlabHold holdEmptySlabs() {
        synchronized (this) {
            ensureOpen();
            emptySlabHolds++;
        }
        return new EmptySlabHold(this);
    }

    private void releaseEmptySlabHold() {
        List<Slab> emptied = new ArrayList<>();
        synchronized (this) {
            if (--emptySlabHolds > 0 || closed) {
                return;
            }
            for (int index = slabs.size() - 1; index >= 0; index--) {
                Slab slab = slabs.get(index);
                if (slab.freeCount == pagesPerSlab) {
                    slabs.remove(index);
                    slabsWithFreePages.remove(slab);
                    Slab toClose = retireEmptySlab(slab);
                    if (toClose != null) {
                        emptied.add(toClose);
                    }
                }
            }
        }
        // Outside the monitor, as in free(): nobody can reach these slabs any more.
        for (Slab slab : emptied) {
            slab.block.close();
        }
    }

    /** Pages handed out and not yet freed. */
    public synchronized int pagesInUse() {
        return pagesInUse;
    }

    /** Slabs currently held from the memory manager (retained ones not included). */
    public synchronized int slabCount() {
        return slabs.size();
    }

    /** Emptied slabs kept mapped for reuse, outside the memory budget. */
    public synchronized int retainedSlabCount() {
        return retainedSlabs.size();
    }

    /** Returns every slab to the memory manager, including pages still in use (the database is going away). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Slab slab : slabs) {
            slab.block.close();
        }
        for (Slab slab : retainedSlabs) {
            slab.block.close();
        }
        retainedSlabs.clear();
        slabs.clear();
        slabsWithFreePages.clear();
        pagesInUse = 0;
    }

    /** An open {@link #holdEmptySlabs} hold; closing it more than once has no further effect. */
    public static final class EmptySlabHold implements AutoCloseable {
        private final PageAllocator allocator;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private EmptySlabHold(PageAllocator allocator) {
            this.allocator = allocator;
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                allocator.releaseEmptySlabHold();
            }
        }
    }

    /** A run of pages from one memory-manager allocation, with a bitmap of its free pages. */
    static final class Slab {
        final PageAllocator owner;
        final NativeBlock block;
        private final NativePage[] pages;
        private final long[] freeBits;
        int freeCount;
        /** Holds pages named by {@link #preferHugePages} (under the allocator's monitor). */
        boolean hugePagesWanted;
        /** Its move onto huge pages was queued (under the allocator's monitor). */
        boolean hugePagesRequested;

        Slab(PageAllocator owner, NativeBlock block, int pageSizeBytes, int pageCount) {
            this.owner = owner;
            this.block = block;
            this.pages = new NativePage[pageCount];
            MemorySegment whole = block.segment();
            for (int index = 0; index < pageCount; index++) {
                pages[index] = new NativePage(this, index, whole.asSlice((long) index * (pageSizeBytes + PAGE_STAGGER), pageSizeBytes));
            }
            this.freeBits = new long[(pageCount + 63) >>> 6];
            for (int index = 0; index < pageCount; index++) {
                freeBits[index >>> 6] |= 1L << index;
            }
            this.freeCount = pageCount;
        }

        NativePage takeFreePage() {
            for (int word = 0; word < freeBits.length; word++) {
                if (freeBits[word] != 0) {
                    int index = (word << 6) + Long.numberOfTrailingZeros(freeBits[word]);
                    freeBits[word] &= ~(1L << index);
                    freeCount--;
                    NativePage page = pages[index];
                    page.markHandedOut();
                    return page;
                }
            }
            throw new IllegalStateException("slab has no free page");
        }


        boolean isFree(int index) {
            return (freeBits[index >>> 6] & (1L << index)) != 0;
        }

        void release(int index) {
            freeBits[index >>> 6] |= 1L << index;
            freeCount++;
        }
    }
}
