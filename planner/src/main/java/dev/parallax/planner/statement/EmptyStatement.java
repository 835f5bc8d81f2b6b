package dev.parallax.planner.statement;

/** A statement text holding only whitespace, comments or a semicolon: PostgreSQL's EmptyQueryResponse. */
public record EmptyStatement() implements Statement {
}
