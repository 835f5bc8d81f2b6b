package dev.parallax.engine.operator;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Values of expressions that do not reference columns (LIMIT counts, VALUES rows, generate_series
 * bounds), evaluated once per operator instance, in the engine's representation (Long, Double,
 * byte[], or null for SQL NULL).
 */
public final class ConstantValues {
    private ConstantValues() {
    }

    /** Evaluates {@code expression}: literals and parameters directly, anything else through the compiler on one empty row. */
    public static Object evaluate(Expr expression, ExecutionContext context) {
        return switch (expression) {
            case Literal literal -> literal.value();
            case Parameter parameter -> context.parameter(parameter.index());
            default -> {
                Batch oneRow = new Batch(new ColumnVector[0]);
                oneRow.setRowCount(1);
                ColumnVector result = ExpressionCompiler.compile(expression, context).evaluate(oneRow);
                yield read(result, 0);
            }
        };
    }

    /** The value at {@code position} of {@code vector}, or null. */
    public static Object read(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            return null;
        }
        return switch (vector) {
            case LongVector longs -> longs.get(position);
            case DoubleVector doubles -> doubles.get(position);
            case BytesVector bytes -> bytes.getBytes(position);
        };
    }

    /** Stores {@code value} (engine representation or null) at {@code position}. */
    public static void store(ColumnVector vector, int position, Object value) {
        if (value == null) {
            vector.setNull(position);
            return;
        }
        switch (vector) {
            case LongVector longs -> longs.set(position, ((Number) value).longValue());
            case DoubleVector doubles -> doubles.set(position, ((Number) value).doubleValue());
            case BytesVector bytes -> bytes.set(position, (byte[]) value);
        }
    }
}
