package dev.parallax;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * A statement parsed and planned once ({@code $1}/{@code ?} parameters), executed many times
 * without going back to Calcite. Belongs to the session that prepared it.
 */
public interface PreparedQuery extends AutoCloseable {
    String sql();

    /** Types inferred for the parameters, in order. */
    List<DataType> parameterTypes();

    /** Result columns (empty when the statement returns no rows). */
    List<ResultColumn> columns();

    /**
     * Runs with these parameter values: Java values (Integer, Long, BigDecimal, Double, Boolean,
     * String, LocalDate, LocalDateTime, byte[]) or null, converted to the parameter types; an array
     * parameter ({@code id = ANY($1)}) takes an Object[], int[]/long[]/double[]..., a Collection or
     * a java.sql.Array of such values, or its text form ({@code "{1,2}"}).
     * The result of a {@linkplain #isPointLookup() point lookup}, and the batch it returns, are
     * valid until the next execution of this query (which reuses them once closed, so that a point
     * query allocates nothing).
     */
    Result execute(Object... parameters);

    /**
     * Whether {@link #execute} would now answer without the planner or the executor: a point
     * lookup by unique key whose plan is still valid. Such an execution takes microseconds and
     * never waits for other threads, so a server multiplexing many clients over a few threads may
     * run it on an I/O thread. Turns false at any DDL and after {@link #close()}.
     */
    boolean isPointLookup();

    @Override
    void close();
}
