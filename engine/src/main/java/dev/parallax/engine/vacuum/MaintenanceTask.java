package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.Table;

import java.util.Objects;

/**
 * One table's share of a VACUUM or ANALYZE statement.
 *
 * @param analyzeColumns table column positions to analyze, or null for all
 */
public record MaintenanceTask(Table table, boolean vacuum, boolean analyze, int[] analyzeColumns) {
    public MaintenanceTask {
        Objects.requireNonNull(table, "table");
        analyzeColumns = analyzeColumns == null ? null : analyzeColumns.clone();
    }

    @Override
    public int[] analyzeColumns() {
        return analyzeColumns == null ? null : analyzeColumns.clone();
    }
}
