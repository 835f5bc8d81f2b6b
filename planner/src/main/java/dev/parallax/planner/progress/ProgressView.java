package dev.parallax.planner.progress;

import dev.parallax.RunningStatement;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code pg_stat_progress} system view: one row per running statement, produced from the
 * registry each time it is read, so a planned (and cached) query always sees the statements
 * running now. Read-only.
 */
public final class ProgressView {
    public static final String VIEW_NAME = "pg_stat_progress";
    public static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("session", DataType.INTEGER, true),
            new ColumnDefinition("query", DataType.TEXT, true),
            new ColumnDefinition("phase", DataType.TEXT, true),
            new ColumnDefinition("done", DataType.BIGINT, true),
            new ColumnDefinition("total", DataType.BIGINT, true),
            new ColumnDefinition("unit", DataType.TEXT, true),
            new ColumnDefinition("elapsed_seconds", DataType.DOUBLE, true));

    private ProgressView() {
    }

    /** The view's storage over {@code registry}. */
    public static TableStorage storage(RunningStatementRegistry registry) {
        return new CatalogViewStorage(VIEW_NAME, COLUMNS, () -> rows(registry));
    }

    private static List<Object[]> rows(RunningStatementRegistry registry) {
        List<Object[]> rows = new ArrayList<>();
        for (RunningStatement statement : registry.snapshot()) {
            rows.add(new Object[] {statement.session(), statement.query(), statement.phase(), statement.done(),
                    statement.total(), statement.unit(), statement.elapsedSeconds()});
        }
        return rows;
    }
}
