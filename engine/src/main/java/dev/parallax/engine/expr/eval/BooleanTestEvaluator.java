package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * NOT (NULL stays NULL) and the never-NULL tests IS [NOT] NULL, IS [NOT] TRUE, IS [NOT] FALSE.
 * Each row's result is a lookup in a three-entry table indexed by FALSE / TRUE / NULL, fixed at
 * compile time, so one loop serves all seven.
 */
final class BooleanTestEvaluator extends Evaluator {
    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int NULL = 2;
    private static final int RESULT_NULL = -1;

    private final Evaluator operand;
    private final int[] outcomes;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);

    BooleanTestEvaluator(Function function, Evaluator operand) {
        super(DataType.BOOLEAN);
        this.operand = operand;
        this.outcomes = switch (function) {
            case NOT -> new int[] {1, 0, RESULT_NULL};
            case IS_NULL -> new int[] {0, 0, 1};
            case IS_NOT_NULL -> new int[] {1, 1, 0};
            case IS_TRUE -> new int[] {0, 1, 0};
            case IS_NOT_TRUE -> new int[] {1, 0, 1};
            case IS_FALSE -> new int[] {1, 0, 0};
            case IS_NOT_FALSE -> new int[] {0, 1, 1};
            default -> throw new IllegalArgumentException("not a boolean test: " + function);
        };
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector vector = operand.evaluate(input, selection, count);
        boolean[] nulls = nullsOf(vector);
        LongVector result = prepare(output, input);
        long[] out = result.values();
        // IS [NOT] NULL applies to any type; the others read booleans.
        long[] values = vector instanceof LongVector longs && vector.type().kind() == dev.parallax.engine.type.TypeKind.BOOLEAN
                ? longs.values() : null;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int state = isNull(nulls, position) ? NULL : (values == null ? TRUE : (values[position] != 0 ? TRUE : FALSE));
            int outcome = outcomes[state];
            if (outcome == RESULT_NULL) {
                result.setNull(position);
            } else {
                out[position] = outcome;
            }
        }
        return result;
    }
}
