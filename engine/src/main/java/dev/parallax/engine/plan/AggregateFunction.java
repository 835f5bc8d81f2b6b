package dev.parallax.engine.plan;

/** Aggregate functions; semantics are PostgreSQL's (NULL inputs skipped; empty input gives NULL, count gives 0). */
public enum AggregateFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, BOOL_AND, BOOL_OR
}
