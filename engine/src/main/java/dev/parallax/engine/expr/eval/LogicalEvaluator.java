package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Three-valued AND / OR of two booleans. The right side runs only on the rows the left side does
 * not decide (not FALSE for AND, not TRUE for OR), so {@code x <> 0 AND 1 / x > 1} cannot divide
 * by zero — the order PostgreSQL evaluates in, which users rely on.
 */
final class LogicalEvaluator extends Evaluator {
    private final boolean conjunction;
    private final Evaluator left;
    private final Evaluator right;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);
    private int[] undecided = new int[0];

    LogicalEvaluator(boolean conjunction, Evaluator left, Evaluator right) {
        super(DataType.BOOLEAN);
        this.conjunction = conjunction;
        this.left = left;
        this.right = right;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector leftVector = (LongVector) left.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        long[] out = result.values();
        long[] leftValues = leftVector.values();
        boolean[] leftNulls = nullsOf(leftVector);
        // The value that decides the result alone: FALSE for AND, TRUE for OR.
        long deciding = conjunction ? 0 : 1;
        undecided = scratch(undecided, input);
        int undecidedCount = 0;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (!isNull(leftNulls, position) && leftValues[position] == deciding) {
                out[position] = deciding;
            } else {
                undecided[undecidedCount++] = position;
            }
        }
        if (undecidedCount == 0) {
            return result;
        }
        LongVector rightVector = (LongVector) right.evaluate(input, undecided, undecidedCount);
        long[] rightValues = rightVector.values();
        boolean[] rightNulls = nullsOf(rightVector);
        for (int index = 0; index < undecidedCount; index++) {
            int position = undecided[index];
            boolean rightNull = isNull(rightNulls, position);
            if (!rightNull && rightValues[position] == deciding) {
                out[position] = deciding;
            } else if (rightNull || isNull(leftNulls, position)) {
                result.setNull(position);
            } else {
                out[position] = 1 - deciding;
            }
        }
        return result;
    }
}
