package dev.parallax.engine.plan;

/**
 * The window functions, computed over rows sorted by the window's partition and order keys
 * (PostgreSQL's semantics). The ranking functions give a bigint and ignore the window's frame:
 * ROW_NUMBER numbers the rows of a partition from 1; RANK gives peers (rows equal on the order
 * keys) the number of their first row, leaving gaps; DENSE_RANK counts the distinct peer groups,
 * without gaps. AGGREGATE is a plain aggregate ({@link WindowCall#aggregate()}) over each row's
 * {@link WindowFrame}.
 * <p>The others need the whole partition ({@link #needsPartition()}): PERCENT_RANK
 * ({@code (rank - 1) / (rows - 1)}, 0 for a partition of one row) and CUME_DIST (rows up to the
 * row's last peer / rows) give a double precision; NTILE(n) the bucket 1..n of rows
 * split as evenly as possible, the first buckets one row larger. LAG(value, offset, default) and
 * LEAD read the value {@code offset} rows (1 by default) before or after the row in its partition,
 * the default (NULL by default) when no row is there, NULL when the offset is NULL.
 * FIRST_VALUE, LAST_VALUE and NTH_VALUE(value, n) read the first, last and n-th row of the row's
 * frame (NULL when the frame has fewer than n rows).
 */
public enum WindowFunction {
    ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE,
    PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE;

    /** Whether the function reads rows of the partition other than those before the current row's peers: computed once the partition is complete. */
    public boolean needsPartition() {
        return switch (this) {
            case ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE -> false;
            case PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
        };
    }

    /** Whether the function's result is one of its argument's values (the value's type). */
    public boolean readsValue() {
        return switch (this) {
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
            case ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE, PERCENT_RANK, CUME_DIST, NTILE -> false;
        };
    }
}
