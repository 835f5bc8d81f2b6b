package dev.parallax.planner.statement;

/**
 * {@code EXPLAIN [ANALYZE] [VERBOSE] query} or {@code EXPLAIN (option [value], ...) query}.
 * {@code queryOffset} is where the query starts in the EXPLAIN text, so that errors in the query
 * point at the right character.
 */
public record ExplainStatement(ExplainOptions options, String query, int queryOffset) implements Statement {
}
