package dev.parallax.planner.query.cost;

import dev.parallax.engine.catalog.ColumnStatistics;

/**
 * Where a cost estimate finds ANALYZE's statistics of the columns an expression reads: input column
 * {@code index} (as a ColumnRef numbers it) to its table column's statistics, or null when that
 * column was never analyzed or is not a table column.
 */
@FunctionalInterface
public interface ColumnStatisticsLookup {
    /** No statistics: PostgreSQL's default selectivities apply. */
    ColumnStatisticsLookup NONE = index -> null;

    /** Statistics of input column {@code index}, or null. */
    ColumnStatistics column(int index);
}
