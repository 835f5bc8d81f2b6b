package dev.parallax.engine.catalog;

/**
 * One column's statistics from ANALYZE, as PostgreSQL's pg_stats shows them.
 *
 * @param nullFraction  fraction of rows whose value is NULL (null_frac)
 * @param distinctCount estimated number of distinct non-NULL values (a positive n_distinct)
 * @param minimum       the smallest non-NULL value in the engine's representation (Long, Double,
 *                      byte[]) or null when the column has no non-NULL value or no order
 * @param maximum       the largest, likewise
 */
public record ColumnStatistics(double nullFraction, double distinctCount, Object minimum, Object maximum) {
}
