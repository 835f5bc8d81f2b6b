package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.MaintenanceActivity;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code pg_stat_user_tables} system view: one row per user table, read from the catalog each
 * time the view is scanned (live and dead rows now, and the VACUUM / ANALYZE activity recorded on
 * the table), with PostgreSQL's column names for the figures Parallax keeps. Read-only.
 */
public final class UserTablesView {
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

    private UserTablesView() {
    }

    /** The view's storage over {@code catalog}. */
    public static TableStorage storage(Catalog catalog) {
        return new CatalogViewStorage(VIEW_NAME, COLUMNS, () -> rows(catalog));
    }

    private static List<Object[]> rows(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        for (Table table : catalog.tables()) {
            if (table.isSystemView()) {
                continue;
            }
            MaintenanceActivity activity = table.maintenance();
            long dead = table.storage() instanceof PagedTableStorage paged ? paged.deadRowCount() : 0;
            rows.add(new Object[] {"public", table.name(), table.storage().rowCount(), dead,
                    activity.lastVacuum(), activity.lastAutovacuum(), activity.lastAnalyze(), activity.lastAutoanalyze(),
                    activity.vacuumCount(), activity.autovacuumCount(), activity.analyzeCount(), activity.autoanalyzeCount()});
        }
        return rows;
    }
}
