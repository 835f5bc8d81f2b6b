package dev.parallax.engine.plan;

/**
 * The window functions, computed over rows sorted by the window's partition and order keys
 * (PostgreSQL's semantics). The ranking functions give a bigint and ignore the window's frame:
 * ROW_NUMBER numbers the rows of a partition from 1; RANK gives peers (rows equal on the order
 * keys) the number of their first row, leaving gaps; DENSE_RANK counts the distinct peer groups,
 * without gaps. AGGREGATE is a plain aggregate ({@link WindowCall#aggregate()}) over each row's
 * {@link WindowFrame}.
 */
public enum WindowFunction {
    ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE
}
