package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Arrays;

/**
 * What changes between executions of one prepared statement whose expressions are compiled once
 * ({@link ExpressionCompiler#compileReusable}): the bound parameter values, the statement's start
 * time (statement_timestamp()) and its transaction's (now()). The executing thread sets them before evaluating; the evaluators read them
 * at every evaluation. A parameter held as a long (an integer value bound to a long-held type) is
 * set with {@link #setLong} and never boxed. Used by one thread at a time.
 */
public final class StatementValues {
    private Object[] parameters = new Object[0];
    private long[] longs = new long[0];
    private boolean[] heldAsLong = new boolean[0];
    private int count;
    private long statementStartMicros;
    private long transactionStartMicros;

    /**
     * Sets the values of the next execution: {@code parameters} in the engine representation of
     * each parameter's type (Long, Double, byte[], or null), copied; the execution is its own transaction.
     */
    public void bind(Object[] parameters, long statementStartMicros) {
        setCount(parameters.length);
        for (int index = 0; index < parameters.length; index++) {
            set(index, parameters[index]);
        }
        setStartMicros(statementStartMicros, statementStartMicros);
    }

    /** Starts the next execution's values: {@code parameterCount} parameters (set each with {@link #set} or {@link #setLong}). */
    public void setCount(int parameterCount) {
        if (parameters.length < parameterCount) {
            parameters = new Object[parameterCount];
            longs = new long[parameterCount];
            heldAsLong = new boolean[parameterCount];
        }
        count = parameterCount;
    }

    /** Parameter {@code index} in the engine representation of its type (Long, Double, byte[]), or null for SQL NULL. */
    public void set(int index, Object value) {
        parameters[index] = value;
        heldAsLong[index] = false;
    }

    /** Parameter {@code index}, of a long-held type, without boxing. */
    public void setLong(int index, long value) {
        parameters[index] = null;
        longs[index] = value;
        heldAsLong[index] = true;
    }

    /**
     * statement_timestamp() and now() of the next execution: microseconds since the epoch when it
     * started and when its transaction did (the same outside a BEGIN block).
     */
    public void setStartMicros(long statementStartMicros, long transactionStartMicros) {
        this.statementStartMicros = statementStartMicros;
        this.transactionStartMicros = transactionStartMicros;
    }

    /** Forgets the values (and the references they hold). */
    public void clear() {
        Arrays.fill(parameters, null);
        count = 0;
    }

    private void check(int index) {
        if (index < 0 || index >= count) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d", index + 1);
        }
    }

    /** Whether parameter {@code index} is held as a long ({@link #longParameter}). */
    boolean isLong(int index) {
        check(index);
        return heldAsLong[index];
    }

    long longParameter(int index) {
        return longs[index];
    }

    /** Value of parameter {@code index} (0-based) of the current execution, or null for SQL NULL. */
    Object parameter(int index) {
        check(index);
        return parameters[index];
    }

    /** statement_timestamp(): microseconds since the epoch when the current execution started. */
    long statementStartMicros() {
        return statementStartMicros;
    }

    /** now(): microseconds since the epoch when the current execution's transaction started. */
    long transactionStartMicros() {
        return transactionStartMicros;
    }
}
