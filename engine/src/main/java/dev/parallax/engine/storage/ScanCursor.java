package dev.parallax.engine.storage;

/**
 * The one shared cursor of a parallel scan: workers call {@link #nextChunk()} to claim the next
 * run of pages. Thread-safe; one atomic operation per claim. A cursor holds its scan's snapshot
 * registered with the storage (VACUUM keeps what the scan may still read) until {@link #close()}.
 */
public interface ScanCursor extends AutoCloseable {
    /** Returned by {@link #nextChunk()} when no page is left. */
    long EXHAUSTED = -1L;

    /**
     * Claims the next chunk: returns {@code (firstPage << 32) | pageCount}, or {@link #EXHAUSTED}.
     * Decode with {@link #firstPage(long)} and {@link #pageCount(long)}.
     */
    long nextChunk();

    /**
     * What the participants of this scan may see: every participant reads its pages with the same
     * snapshot, so a parallel scan sees each row once. Null: the rows live when each page is read.
     */
    default ScanSnapshot snapshot() {
        return null;
    }

    /**
     * Ends the scan: releases its snapshot so that VACUUM may reclaim the rows only it could see.
     * Called once by the cursor's owner (a serial scan, or the Gather whose participants share it)
     * after every participant stopped reading, also after a failure or cancel; further calls do
     * nothing. The cursor must not be used afterwards.
     */
    @Override
    default void close() {
    }

    static int firstPage(long chunk) {
        return (int) (chunk >>> 32);
    }

    static int pageCount(long chunk) {
        return (int) chunk;
    }

    static long chunk(int firstPage, int pageCount) {
        return ((long) firstPage << 32) | (pageCount & 0xFFFFFFFFL);
    }
}
