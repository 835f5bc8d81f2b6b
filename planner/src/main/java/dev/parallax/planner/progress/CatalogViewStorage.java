package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.ChunkedScanCursor;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * A read-only system view (pg_catalog, pg_stat_*) whose rows are computed each time the view is
 * scanned (a handful of rows, one page), so a planned and cached query always sees the current
 * state. Values are String (text), Long or Integer (integer types), Boolean, Double, Instant
 * (timestamp) or null.
 */
public final class CatalogViewStorage implements TableStorage {
    private final String viewName;
    private final List<ColumnDefinition> columns;
    private final Supplier<List<Object[]>> rows;

    /**
     * @param viewName the view's name, for the error on INSERT
     * @param columns  the view's columns
     * @param rows     computes the current rows, each with one value per column
     */
    public CatalogViewStorage(String viewName, List<ColumnDefinition> columns, Supplier<List<Object[]>> rows) {
        this.viewName = viewName;
        this.columns = columns;
        this.rows = rows;
    }

    @Override
    public List<DataType> columnTypes() {
        return columns.stream().map(ColumnDefinition::type).toList();
    }

    @Override
    public void append(Batch batch) {
        throw new ParallaxException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cannot insert into view \"" + viewName + "\"");
    }

    @Override
    public int pageCount() {
        return 1;
    }

    @Override
    public long rowCount() {
        return rows.get().size();
    }

    @Override
    public long sizeBytes() {
        return 0;
    }

    @Override
    public ScanCursor openScan(int chunkPages) {
        return new ChunkedScanCursor(1, chunkPages);
    }

    @Override
    public int readPage(int pageIndex, int[] columnIndexes, Batch target) {
        List<Object[]> current = rows.get();
        int count = current.size();
        target.reset();
        target.ensureCapacity(Math.max(1, count));
        for (int index = 0; index < columnIndexes.length; index++) {
            int column = columnIndexes[index];
            for (int row = 0; row < count; row++) {
                Object value = current.get(row)[column];
                switch (value) {
                    case null -> target.column(index).setNull(row);
                    case String text -> ((BytesVector) target.column(index)).set(row, text.getBytes(StandardCharsets.UTF_8));
                    case Long number -> ((LongVector) target.column(index)).set(row, number);
                    case Integer number -> ((LongVector) target.column(index)).set(row, number);
                    case Boolean flag -> ((LongVector) target.column(index)).set(row, flag ? 1 : 0);
                    case Double number -> ((DoubleVector) target.column(index)).set(row, number);
                    // Arrays, already in ArrayValue form.
                    case byte[] array -> ((BytesVector) target.column(index)).set(row, array);
                    // Timestamps are held as microseconds since the epoch.
                    case Instant at -> ((LongVector) target.column(index)).set(row,
                            Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000));
                    default -> throw new IllegalStateException(viewName + ": unexpected value " + value);
                }
            }
        }
        target.setRowCount(count);
        return count;
    }

    /** Nothing to free: the view holds no pages. */
    @Override
    public void close() {
    }
}
