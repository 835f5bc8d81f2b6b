package dev.parallax.engine.storage;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * The rows of one table partition in off-heap PAX pages. Readers (scans, any number of threads)
 * and writers (one at a time; writers serialize on the storage) may run concurrently: a scan sees
 * each row that was live when its page was read exactly once, never a torn row.
 */
public interface TableStorage extends AutoCloseable {
    List<DataType> columnTypes();

    /**
     * Appends the live rows of {@code batch} (columns in table order, values already of the column
     * types). Either all rows are appended or, on error (out of memory, value too long), none.
     */
    void append(Batch batch);

    /** Pages currently allocated to this table. */
    int pageCount();

    /** Live rows. */
    long rowCount();

    /** Bytes of the pages this table holds. */
    long sizeBytes();

    /**
     * Opens a scan over the pages present now. {@code chunkPages}: 0 sizes chunks by table size and
     * ramps down near the end (PostgreSQL 14's rule); N hands out N pages per claim.
     */
    ScanCursor openScan(int chunkPages);

    /**
     * Reads the live rows of page {@code pageIndex} into {@code target}: {@code target}'s column i
     * receives table column {@code columns[i]}. The batch is reset, grown as needed, and holds only
     * live rows afterwards (no selection). Returns the number of rows read.
     */
    int readPage(int pageIndex, int[] columns, Batch target);

    /** Frees every page. The storage must not be used afterwards. */
    @Override
    void close();
}
