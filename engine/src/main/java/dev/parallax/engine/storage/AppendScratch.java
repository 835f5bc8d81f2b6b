package dev.parallax.engine.storage;

import java.util.Arrays;

/**
 * The bookkeeping arrays of one {@link PagedTableStorage#modify} step (per page touched: its
 * address, new row count, heap start and null counts; per column: the heap bytes of the rows being
 * written), kept per thread rather than made per step: a point upsert made six of them per
 * statement, a third of its 384 bytes of garbage, and each thread's set stays in its own cache
 * where a set per table would be one more cold line on each of 1024 partitions. A step inside
 * another one on the same thread (the partitions of one statement, {@link
 * PagedTableStorage#publishTogether}) finds the thread's set taken and uses a set of its own.
 * A caller that runs steps on one thread at a time may keep a set of its own ({@link #create},
 * handed to {@link PagedTableStorage#modify(java.util.List, long[], int, AppendGuard, AppendScratch)}):
 * a prepared upsert then skips the thread-local lookup, which costs tens of ns more whenever this
 * thread's entry does not sit in its home slot of the thread's map (a matter of which thread locals
 * the process made before it; see TableChanges#forStatement).
 */
public final class AppendScratch {
    private static final ThreadLocal<AppendScratch> PER_THREAD = ThreadLocal.withInitial(AppendScratch::new);
    private static final int INITIAL_PAGES = 4;
    /** Arrays longer than this (a bulk step's) are not kept for the next step. */
    private static final int KEPT_PAGES = 64;

    long[] touchedPages = new long[INITIAL_PAGES];
    int[] newRowCounts = new int[INITIAL_PAGES];
    int[] newHeapStarts = new int[INITIAL_PAGES];
    int[][] newNullCounts = new int[INITIAL_PAGES][];
    /** The addresses of the tail page's lines that a one-row append writes, loaded ahead ({@link PagedTableStorage#loadAppendLines}). */
    final long[] appendLines = new long[PagedTableStorage.APPEND_LINES];
    private int[] heapBytes = new int[0];
    private boolean taken;

    private AppendScratch() {
    }

    /** A set for a caller to keep and hand to its steps, one step at a time. */
    public static AppendScratch create() {
        return new AppendScratch();
    }

    /**
     * {@code owned} (a caller's set, or null) when no step holds it, else the thread's set, or a
     * new one when a step of this thread holds that; {@link #giveBack} it.
     */
    static AppendScratch take(AppendScratch owned) {
        if (owned != null && !owned.taken) {
            owned.taken = true;
            return owned;
        }
        AppendScratch scratch = PER_THREAD.get();
        if (scratch.taken) {
            scratch = new AppendScratch();
        }
        scratch.taken = true;
        return scratch;
    }

    /**
     * Ends the step, which touched {@code touchedCount} pages: drops its references to null count
     * arrays (pages' published counts) and frees the set. Arrays a large step grew are replaced by
     * small ones: clearing the 5,500 entries a 10M-row load left behind took each later point
     * upsert on that thread from 1.9 to 6.1 µs (UpsertBenchmark, whose load runs on the benchmark thread).
     */
    void giveBack(int touchedCount) {
        if (touchedPages.length > KEPT_PAGES) {
            touchedPages = new long[INITIAL_PAGES];
            newRowCounts = new int[INITIAL_PAGES];
            newHeapStarts = new int[INITIAL_PAGES];
            newNullCounts = new int[INITIAL_PAGES][];
        } else {
            Arrays.fill(newNullCounts, 0, touchedCount, null);
        }
        taken = false;
    }

    /** Records touched page {@code index}: its address and what its header is to say once published. */
    void setTouched(int index, long page, int rowCount, int heapStart, int[] nullCounts) {
        if (index == touchedPages.length) {
            int length = touchedPages.length * 2;
            touchedPages = Arrays.copyOf(touchedPages, length);
            newRowCounts = Arrays.copyOf(newRowCounts, length);
            newHeapStarts = Arrays.copyOf(newHeapStarts, length);
            newNullCounts = Arrays.copyOf(newNullCounts, length);
        }
        touchedPages[index] = page;
        newRowCounts[index] = rowCount;
        newHeapStarts[index] = heapStart;
        newNullCounts[index] = nullCounts;
    }

    /** Per-column heap bytes for at least {@code columnCount} columns (rowsThatFit fills and writeRows reads the first ones). */
    int[] heapBytes(int columnCount) {
        if (heapBytes.length < columnCount) {
            heapBytes = new int[columnCount];
        }
        return heapBytes;
    }
}
