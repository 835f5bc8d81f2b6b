package dev.parallax.engine.plan;

/**
 * The ranking window functions, computed over rows sorted by the window's partition and order keys
 * (PostgreSQL's semantics; each gives a bigint): ROW_NUMBER numbers the rows of a partition from 1;
 * RANK gives peers (rows equal on the order keys) the number of their first row, leaving gaps;
 * DENSE_RANK counts the distinct peer groups, without gaps.
 */
public enum WindowFunction {
    ROW_NUMBER, RANK, DENSE_RANK
}
