package dev.parallax.engine.plan;

/**
 * Aggregate functions; semantics are PostgreSQL's (NULL inputs skipped; empty input gives NULL, count
 * gives 0). SINGLE_VALUE is a scalar subquery's value: its only row's value (NULLs included), NULL
 * for no row, error 21000 for more than one row. ARRAY_AGG collects its inputs, NULLs included, into
 * an array (NULL for no row), in the order the rows reach it. VAR_SAMP, VAR_POP, STDDEV_SAMP and
 * STDDEV_POP are the sample and population variance and standard deviation (stddev and variance are
 * the sample forms): NULL for no value, and for one value in the sample forms; numeric for integer
 * and numeric arguments (exact sums), double precision for real and double arguments. BIT_AND,
 * BIT_OR and BIT_XOR combine the bits of integer values (NULL for no value). COLLECT gathers the
 * non-NULL inputs into an array in no particular order (NULL for none): the values an ordered-set
 * aggregate (mode, percentile_cont, percentile_disc) sorts in its final step, so unlike ARRAY_AGG
 * it runs partially, the Finalize appending the participants' arrays.
 */
public enum AggregateFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, BOOL_AND, BOOL_OR, SINGLE_VALUE, ARRAY_AGG, VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP,
    BIT_AND, BIT_OR, BIT_XOR, COLLECT
}
