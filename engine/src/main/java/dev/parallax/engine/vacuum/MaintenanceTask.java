package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.Table;

import java.util.Objects;

/**
 * One table's share of a VACUUM or ANALYZE statement.
 *
 * @param analyzeColumns table column positions to analyze, or null for all
 * @param full           VACUUM FULL: rewrite the table compactly ({@link FullTableVacuum})
 */
public record MaintenanceTask(Table table, boolean vacuum, boolean analyze, int[] analyzeColumns, boolean full) {
    public MaintenanceTask {
        Objects.requireNonNull(table, "table");
        analyzeColumns = analyzeColumns == null ? null : analyzeColumns.clone();
    }

    /** A task of plain VACUUM and/or ANALYZE. */
    public MaintenanceTask(Table table, boolean vacuum, boolean analyze, int[] analyzeColumns) {
        this(table, vacuum, analyze, analyzeColumns, false);
    }

    @Override
    public int[] analyzeColumns() {
        return analyzeColumns == null ? null : analyzeColumns.clone();
    }
}
