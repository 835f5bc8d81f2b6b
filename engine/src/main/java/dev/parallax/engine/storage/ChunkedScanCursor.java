package dev.parallax.engine.storage;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared cursor of a parallel scan over {@code pageCount} pages: one atomic counter of pages
 * handed out, advanced by fetch-and-add, so each page goes to exactly one caller.
 * <ul>
 *   <li>{@code chunkPages} N &gt; 0: N pages per claim (1 is PostgreSQL before 14: one page at a time).</li>
 *   <li>{@code chunkPages} 0: PostgreSQL 14's rule (tableam.c, table_block_parallelscan_startblock_init
 *       and _nextpage): chunks of the next power of two of {@code pageCount / 2048} pages, at least 1
 *       and at most 8192; once fewer than {@code chunk * 64} pages remain, the chunk is halved, so
 *       workers finish together on small chunks.</li>
 * </ul>
 * PostgreSQL keeps the chunk size per worker and halves it once per claim; here the size follows
 * from the counter's position (halving while {@code lastAllocated > pageCount - size * 64}), which
 * gives a lone worker exactly PostgreSQL's sequence of chunks and needs no per-worker state. The
 * position is read before the fetch-and-add, so racing workers may size a chunk from a slightly
 * stale position, as PostgreSQL's workers do; correctness rests on the fetch-and-add alone.
 */
public final class ChunkedScanCursor implements ScanCursor {
    /** PARALLEL_SEQSCAN_NCHUNKS: the number of chunks a scan aims for. */
    public static final int TARGET_CHUNKS = 2048;
    /** PARALLEL_SEQSCAN_MAX_CHUNK_SIZE. */
    public static final int MAX_CHUNK_PAGES = 8192;
    /** PARALLEL_SEQSCAN_RAMPDOWN_CHUNKS: the chunk halves when fewer than this many chunks remain. */
    public static final int RAMPDOWN_CHUNKS = 64;

    private final int pageCount;
    private final int fixedChunkPages;
    private final int initialChunkPages;
    /** Pages handed out so far; goes past {@link #pageCount} once the scan is exhausted. */
    private final AtomicLong allocated = new AtomicLong();
    private final ScanSnapshot snapshot;
    /** The snapshot's registration with the storage, released by {@link #close()}; null when none. */
    private final OpenSnapshot registration;

    /**
     * @param pageCount  pages to hand out (0 .. pageCount-1)
     * @param chunkPages pages per claim, or 0 for PostgreSQL 14's automatic sizing
     */
    public ChunkedScanCursor(int pageCount, int chunkPages) {
        this(pageCount, chunkPages, null);
    }

    /** A cursor whose participants read with {@code snapshot} (may be null). */
    public ChunkedScanCursor(int pageCount, int chunkPages, ScanSnapshot snapshot) {
        this(pageCount, chunkPages, snapshot, null);
    }

    /**
     * A cursor over the pages {@code registration}'s snapshot covers, read with that snapshot; it
     * owns the registration and releases it on {@link #close()}.
     */
    public ChunkedScanCursor(OpenSnapshot registration, int chunkPages) {
        this(registration.snapshot().pageCount(), chunkPages, registration.snapshot(), registration);
    }

    private ChunkedScanCursor(int pageCount, int chunkPages, ScanSnapshot snapshot, OpenSnapshot registration) {
        this.snapshot = snapshot;
        this.registration = registration;
        if (pageCount < 0) {
            throw new IllegalArgumentException("page count must not be negative: " + pageCount);
        }
        if (chunkPages < 0) {
            throw new IllegalArgumentException("chunk pages must not be negative: " + chunkPages);
        }
        this.pageCount = pageCount;
        this.fixedChunkPages = chunkPages;
        this.initialChunkPages = initialChunkPages(pageCount);
    }

    /** PostgreSQL 14's initial chunk size for a table of {@code pageCount} pages. */
    public static int initialChunkPages(int pageCount) {
        int wanted = Math.max(pageCount / TARGET_CHUNKS, 1);
        int powerOfTwo = wanted == 1 ? 1 : Integer.highestOneBit(wanted - 1) << 1;
        return Math.min(powerOfTwo, MAX_CHUNK_PAGES);
    }

    public int pageCount() {
        return pageCount;
    }

    @Override
    public long nextChunk() {
        int size = fixedChunkPages > 0 ? fixedChunkPages : automaticChunkPages(allocated.get());
        long first = allocated.getAndAdd(size);
        if (first >= pageCount) {
            return EXHAUSTED;
        }
        int count = (int) Math.min(size, pageCount - first);
        return ScanCursor.chunk((int) first, count);
    }

    /** The chunk size for a claim made when {@code position} pages have been handed out. */
    int automaticChunkPages(long position) {
        int size = initialChunkPages;
        long lastAllocated = position - 1;
        while (size > 1 && lastAllocated > (long) pageCount - (long) size * RAMPDOWN_CHUNKS) {
            size >>>= 1;
        }
        return size;
    }

    @Override
    public ScanSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public void close() {
        if (registration != null) {
            registration.close();
        }
    }
}
