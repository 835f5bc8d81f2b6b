package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.MaintenanceActivity;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.ChunkedScanCursor;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of the {@code pg_stat_user_tables} system view: one row per user table, read from the
 * catalog each time the view is scanned (live and dead rows now, and the VACUUM / ANALYZE activity
 * recorded on the table), with PostgreSQL's column names for the figures Parallax keeps.
 * Read-only.
 */
public final class UserTablesViewStorage implements TableStorage {
    public static final String VIEW_NAME = "pg_stat_user_tables";
    public static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("schemaname", DataType.TEXT, true),
            new ColumnDefinition("relname", DataType.TEXT, true),
            new ColumnDefinition("n_live_tup", DataType.BIGINT, true),
            new ColumnDefinition("n_dead_tup", DataType.BIGINT, true),
            new ColumnDefinition("last_vacuum", DataType.TIMESTAMP, false),
            new ColumnDefinition("last_autovacuum", DataType.TIMESTAMP, false),
            new ColumnDefinition("last_analyze", DataType.TIMESTAMP, false),
            new ColumnDefinition("last_autoanalyze", DataType.TIMESTAMP, false),
            new ColumnDefinition("vacuum_count", DataType.BIGINT, true),
            new ColumnDefinition("autovacuum_count", DataType.BIGINT, true),
            new ColumnDefinition("analyze_count", DataType.BIGINT, true),
            new ColumnDefinition("autoanalyze_count", DataType.BIGINT, true));

    private final Catalog catalog;

    public UserTablesViewStorage(Catalog catalog) {
        this.catalog = catalog;
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
        return userTables().size();
    }

    @Override
    public long sizeBytes() {
        return 0;
    }

    @Override
    public ScanCursor openScan(int chunkPages) {
        return new ChunkedScanCursor(1, chunkPages);
    }

    private List<Table> userTables() {
        List<Table> tables = new ArrayList<>();
        for (Table table : catalog.tables()) {
            if (!table.isSystemView()) {
                tables.add(table);
            }
        }
        return tables;
    }

    @Override
    public int readPage(int pageIndex, int[] columns, Batch target) {
        List<Table> tables = userTables();
        int rows = tables.size();
        target.reset();
        target.ensureCapacity(Math.max(1, rows));
        for (int index = 0; index < columns.length; index++) {
            int column = columns[index];
            for (int row = 0; row < rows; row++) {
                Table table = tables.get(row);
                MaintenanceActivity activity = table.maintenance();
                switch (column) {
                    case 0 -> text(target, index, row, "public");
                    case 1 -> text(target, index, row, table.name());
                    case 2 -> number(target, index, row, table.storage().rowCount());
                    case 3 -> number(target, index, row, table.storage() instanceof PagedTableStorage paged ? paged.deadRowCount() : 0);
                    case 4 -> timestamp(target, index, row, activity.lastVacuum());
                    case 5 -> timestamp(target, index, row, activity.lastAutovacuum());
                    case 6 -> timestamp(target, index, row, activity.lastAnalyze());
                    case 7 -> timestamp(target, index, row, activity.lastAutoanalyze());
                    case 8 -> number(target, index, row, activity.vacuumCount());
                    case 9 -> number(target, index, row, activity.autovacuumCount());
                    case 10 -> number(target, index, row, activity.analyzeCount());
                    case 11 -> number(target, index, row, activity.autoanalyzeCount());
                    default -> throw new IllegalArgumentException(VIEW_NAME + " has no column " + column);
                }
            }
        }
        target.setRowCount(rows);
        return rows;
    }

    private static void text(Batch target, int column, int row, String value) {
        ((BytesVector) target.column(column)).set(row, value.getBytes(StandardCharsets.UTF_8));
    }

    private static void number(Batch target, int column, int row, long value) {
        ((LongVector) target.column(column)).set(row, value);
    }

    /** Microseconds since the epoch, as TIMESTAMP values are held; NULL for never. */
    private static void timestamp(Batch target, int column, int row, Instant at) {
        if (at == null) {
            target.column(column).setNull(row);
            return;
        }
        ((LongVector) target.column(column)).set(row, Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000));
    }

    /** Nothing to free: the view holds no pages. */
    @Override
    public void close() {
    }
}
