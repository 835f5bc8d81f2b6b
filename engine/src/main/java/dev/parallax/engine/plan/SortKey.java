package dev.parallax.engine.plan;

/** One ORDER BY key: input column, direction, and where NULLs go (PostgreSQL: last for ASC, first for DESC). */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
}
