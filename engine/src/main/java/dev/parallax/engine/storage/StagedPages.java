package dev.parallax.engine.storage;

import dev.parallax.engine.memory.NativePage;
import dev.parallax.engine.vector.Batch;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of a bulk INSERT written into pages of their own that no reader can see yet, all published
 * together by {@link PagedTableStorage#publishStaged} or freed by {@link #close()}. A writer fills
 * its pages without the table's write lock, so several writers of one statement (the participants
 * of a parallel INSERT ... SELECT, one {@code StagedPages} each) write at the same time, and the
 * rows are copied once, from the statement's batches straight into their final pages (collecting
 * them first for one {@link PagedTableStorage#appendAll} was one more copy of every value, and kept
 * every page write on the leader).
 * <p>
 * The rows start on fresh pages: the table's last page keeps its free room (at most one partly
 * filled page per writer is left behind). One thread uses a {@code StagedPages} at a time; pages
 * come from the table's thread-safe allocator.
 */
public final class StagedPages implements AutoCloseable {
    private final PagedTableStorage storage;
    private final PageLayout layout;
    private final int columnCount;
    /** Filled pages and the current one, last; their headers are written at publish time. */
    private final List<NativePage> pages = new ArrayList<>();
    private final List<int[]> nullCountsOfPages = new ArrayList<>();
    private int[] rowCounts = new int[8];
    private int[] heapStarts = new int[8];
    /** Per page: the first slot known to hold zero stamps and null bits ({@link PageLayout#CLEAN_FROM_OFFSET}). */
    private int[] cleanFroms = new int[8];
    private final int[] columnHeapBytes;
    private MemorySegment page;
    private int pageRows;
    private int heapStart;
    private int[] nullCounts;
    private int cleanFrom;
    private long rowCount;
    /** Once published the pages are the table's; once closed they went back to the allocator. */
    private boolean handedOver;

    StagedPages(PagedTableStorage storage) {
        this.storage = storage;
        this.layout = storage.layout();
        this.columnCount = storage.columnTypes().size();
        this.columnHeapBytes = new int[columnCount];
    }

    /** The table these rows are for. */
    public PagedTableStorage storage() {
        return storage;
    }

    /**
     * Writes the live rows of {@code batch} (columns in table order, values of the column types)
     * after the rows written so far. Fails with 54000 for a row larger than an empty page, or 53200
     * when no page can be had; the rows written before stay staged (the caller closes on failure).
     */
    public void write(Batch batch) {
        if (handedOver) {
            throw new IllegalStateException("staged pages were already published or closed");
        }
        if (batch.columnCount() != columnCount) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, table has " + columnCount);
        }
        int liveRows = batch.selectedCount();
        int row = 0;
        while (row < liveRows) {
            int fit = page == null ? 0 : storage.rowsThatFit(batch, row, liveRows, pageRows, heapStart, columnHeapBytes);
            if (fit == 0) {
                if (page != null && pageRows == 0) {
                    throw storage.rowTooBig(batch, row);
                }
                startPage();
                continue;
            }
            heapStart = storage.writeRows(page, batch, row, fit, pageRows, heapStart, nullCounts, columnHeapBytes, cleanFrom);
            pageRows += fit;
            row += fit;
            rowCount += fit;
        }
    }

    /** Rows written so far. */
    public long rowCount() {
        return rowCount;
    }

    /** Pages taken so far. */
    public int pageCount() {
        return pages.size();
    }

    private void startPage() {
        finishPage();
        NativePage taken = storage.allocatePageForOverwrite();
        pages.add(taken);
        page = taken.segment();
        // A page that held another owner's bytes is not zeroed (a 128 KiB fill per page): its
        // header was cleared, and writeRows clears the stamps and null bits of the slots it fills.
        cleanFrom = taken.heldOldBytes() ? layout.rowsPerPage() : 0;
        pageRows = 0;
        heapStart = layout.pageSizeBytes();
        nullCounts = new int[columnCount];
        nullCountsOfPages.add(nullCounts);
    }

    /** Records the current page's row count and heap start (its null counts are recorded by reference). */
    private void finishPage() {
        if (page == null) {
            return;
        }
        int index = pages.size() - 1;
        if (index >= rowCounts.length) {
            rowCounts = Arrays.copyOf(rowCounts, rowCounts.length * 2);
            heapStarts = Arrays.copyOf(heapStarts, heapStarts.length * 2);
            cleanFroms = Arrays.copyOf(cleanFroms, cleanFroms.length * 2);
        }
        rowCounts[index] = pageRows;
        heapStarts[index] = heapStart;
        cleanFroms[index] = cleanFrom;
    }

    /** The pages to publish, their headers' values recorded; called by the storage under its write lock. */
    List<NativePage> pagesForPublish() {
        finishPage();
        return pages;
    }

    int rowCountOfPage(int index) {
        return rowCounts[index];
    }

    int heapStartOfPage(int index) {
        return heapStarts[index];
    }

    int cleanFromOfPage(int index) {
        return cleanFroms[index];
    }

    int[] nullCountsOfPage(int index) {
        return nullCountsOfPages.get(index);
    }

    boolean handedOver() {
        return handedOver;
    }

    /** The storage now owns the pages. */
    void markPublished() {
        handedOver = true;
        page = null;
    }

    /** Frees the pages unless they were published; idempotent. */
    @Override
    public void close() {
        if (handedOver) {
            return;
        }
        handedOver = true;
        page = null;
        for (NativePage staged : pages) {
            storage.freePage(staged);
        }
        pages.clear();
    }
}
