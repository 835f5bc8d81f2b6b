package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

/**
 * What changes between executions of one prepared statement whose expressions are compiled once
 * ({@link ExpressionCompiler#compileReusable}): the bound parameter values and the statement's
 * start time (now()). The executing thread sets them with {@link #bind} before evaluating; the
 * evaluators read them at every evaluation. Used by one thread at a time.
 */
public final class StatementValues {
    private Object[] parameters = new Object[0];
    private long statementStartMicros;

    /**
     * Sets the values of the next execution: {@code parameters} in the engine representation of
     * each parameter's type (Long, Double, byte[], or null), kept by reference, not copied.
     */
    public void bind(Object[] parameters, long statementStartMicros) {
        this.parameters = parameters;
        this.statementStartMicros = statementStartMicros;
    }

    /** Value of parameter {@code index} (0-based) of the current execution, or null for SQL NULL. */
    Object parameter(int index) {
        if (index < 0 || index >= parameters.length) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d", index + 1);
        }
        return parameters[index];
    }

    /** now(): microseconds since the epoch when the current execution started. */
    long statementStartMicros() {
        return statementStartMicros;
    }
}
