package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * A parameter ({@code $n}), now() or statement_timestamp() of a statement compiled once and executed many times: reads its
 * value from {@link StatementValues} at each evaluation, where a statement compiled per execution
 * has a {@link ConstantEvaluator}. Never folded, so expressions over it are evaluated per execution.
 */
final class StatementValueEvaluator extends Evaluator {
    /** The parameter index, or {@link #TRANSACTION_START} (now()) or {@link #STATEMENT_START} (statement_timestamp()). */
    private final int parameterIndex;
    static final int TRANSACTION_START = -1;
    static final int STATEMENT_START = -2;
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
        if (parameterIndex < 0) {
            long[] out = ((LongVector) result).values();
            long now = parameterIndex == TRANSACTION_START ? values.transactionStartMicros() : values.statementStartMicros();
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
