package dev.parallax.engine.plan;

/**
 * Aggregate functions; semantics are PostgreSQL's (NULL inputs skipped; empty input gives NULL, count
 * gives 0). SINGLE_VALUE is a scalar subquery's value: its only row's value (NULLs included), NULL
 * for no row, error 21000 for more than one row. ARRAY_AGG collects its inputs, NULLs included, into
 * an array (NULL for no row), in the order the rows reach it.
 */
public enum AggregateFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, BOOL_AND, BOOL_OR, SINGLE_VALUE, ARRAY_AGG
}
