package dev.parallax.planner.progress;

import dev.parallax.RunningStatement;
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
import java.util.List;

/**
 * The rows of the {@code pg_stat_progress} system view: one page, produced from the registry each
 * time it is read, so a planned (and cached) query always sees the statements running now. The
 * view is read-only.
 */
public final class ProgressViewStorage implements TableStorage {
    public static final String VIEW_NAME = "pg_stat_progress";
    public static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("session", DataType.INTEGER, true),
            new ColumnDefinition("query", DataType.TEXT, true),
            new ColumnDefinition("phase", DataType.TEXT, true),
            new ColumnDefinition("done", DataType.BIGINT, true),
            new ColumnDefinition("total", DataType.BIGINT, true),
            new ColumnDefinition("unit", DataType.TEXT, true),
            new ColumnDefinition("elapsed_seconds", DataType.DOUBLE, true));

    private final RunningStatementRegistry registry;

    public ProgressViewStorage(RunningStatementRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<DataType> columnTypes() {
        return COLUMNS.stream().map(ColumnDefinition::type).toList();
    }

    @Override
    public void append(Batch batch) {
        throw new ParallaxException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cannot insert into view \"" + VIEW_NAME + "\"");
    }

    @Override
    public int pageCount() {
        return 1;
    }

    @Override
    public long rowCount() {
        return registry.snapshot().size();
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
    public int readPage(int pageIndex, int[] columns, Batch target) {
        List<RunningStatement> statements = registry.snapshot();
        int rows = statements.size();
        target.reset();
        target.ensureCapacity(Math.max(1, rows));
        for (int index = 0; index < columns.length; index++) {
            int column = columns[index];
            for (int row = 0; row < rows; row++) {
                RunningStatement statement = statements.get(row);
                switch (column) {
                    case 0 -> ((LongVector) target.column(index)).set(row, statement.session());
                    case 1 -> text(target, index, row, statement.query());
                    case 2 -> text(target, index, row, statement.phase());
                    case 3 -> ((LongVector) target.column(index)).set(row, statement.done());
                    case 4 -> ((LongVector) target.column(index)).set(row, statement.total());
                    case 5 -> text(target, index, row, statement.unit());
                    case 6 -> ((DoubleVector) target.column(index)).set(row, statement.elapsedSeconds());
                    default -> throw new IllegalArgumentException("pg_stat_progress has no column " + column);
                }
            }
        }
        target.setRowCount(rows);
        return rows;
    }

    private static void text(Batch target, int column, int row, String value) {
        ((BytesVector) target.column(column)).set(row, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Nothing to free: the view holds no pages. */
    @Override
    public void close() {
    }
}
