package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * A parameter ({@code $n}) or now() of a statement compiled once and executed many times: reads its
 * value from {@link StatementValues} at each evaluation, where a statement compiled per execution
 * has a {@link ConstantEvaluator}. Never folded, so expressions over it are evaluated per execution.
 */
final class StatementValueEvaluator extends Evaluator {
    /** The parameter index, or {@link #NOW}. */
    private final int parameterIndex;
    static final int NOW = -1;
    private final StatementValues values;
    private final ColumnVector output;

    StatementValueEvaluator(StatementValues values, int parameterIndex, DataType type) {
        super(type);
        this.values = values;
        this.parameterIndex = parameterIndex;
        this.output = ColumnVector.create(type, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        if (parameterIndex == NOW) {
            long[] out = ((LongVector) result).values();
            long now = values.statementStartMicros();
            for (int index = 0; index < count; index++) {
                out[selection == null ? index : selection[index]] = now;
            }
            return result;
        }
        if (values.isLong(parameterIndex)) {
            long[] out = ((LongVector) result).values();
            long value = values.longParameter(parameterIndex);
            for (int index = 0; index < count; index++) {
                out[selection == null ? index : selection[index]] = value;
            }
            return result;
        }
        Object value = values.parameter(parameterIndex);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (value == null) {
                result.setNull(position);
                continue;
            }
            switch (result) {
                case LongVector longs -> longs.set(position, ((Number) value).longValue());
                case DoubleVector doubles -> doubles.set(position, ((Number) value).doubleValue());
                case BytesVector bytes -> bytes.set(position, (byte[]) value);
            }
        }
        return result;
    }
}
