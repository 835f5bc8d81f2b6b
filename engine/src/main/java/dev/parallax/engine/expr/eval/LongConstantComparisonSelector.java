package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code expression <op> constant} on LONG values (integers, dates, timestamps, decimals of equal
 * scale): the hot filter shape ({@code l_shipdate <= date '1998-09-02'}). One tight loop per
 * operator, chosen once per batch; NULL rows are dropped through a second loop only when the
 * vector may hold NULLs.
 */
final class LongConstantComparisonSelector extends Selector {
    private final Evaluator operand;
    private final Function operator;
    private final long constant;

    LongConstantComparisonSelector(Evaluator operand, Function operator, long constant) {
        this.operand = operand;
        this.operator = operator;
        this.constant = constant;
    }

    @Override
    int select(Batch input, int[] selection, int count, int[] out) {
        LongVector vector = (LongVector) operand.evaluate(input, selection, count);
        long[] values = vector.values();
        long bound = constant;
        int selected = 0;
        if (selection == null) {
            switch (operator) {
                case EQUAL -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] == bound ? 1 : 0;
                    }
                }
                case NOT_EQUAL -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] != bound ? 1 : 0;
                    }
                }
                case LESS_THAN -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] < bound ? 1 : 0;
                    }
                }
                case LESS_THAN_OR_EQUAL -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] <= bound ? 1 : 0;
                    }
                }
                case GREATER_THAN -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] > bound ? 1 : 0;
                    }
                }
                default -> {
                    for (int position = 0; position < count; position++) {
                        out[selected] = position;
                        selected += values[position] >= bound ? 1 : 0;
                    }
                }
            }
        } else {
            switch (operator) {
                case EQUAL -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] == bound ? 1 : 0;
                    }
                }
                case NOT_EQUAL -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] != bound ? 1 : 0;
                    }
                }
                case LESS_THAN -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] < bound ? 1 : 0;
                    }
                }
                case LESS_THAN_OR_EQUAL -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] <= bound ? 1 : 0;
                    }
                }
                case GREATER_THAN -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] > bound ? 1 : 0;
                    }
                }
                default -> {
                    for (int index = 0; index < count; index++) {
                        int position = selection[index];
                        out[selected] = position;
                        selected += values[position] >= bound ? 1 : 0;
                    }
                }
            }
        }
        if (vector.mayHaveNulls()) {
            boolean[] nulls = vector.nulls();
            int kept = 0;
            for (int index = 0; index < selected; index++) {
                int position = out[index];
                out[kept] = position;
                kept += nulls[position] ? 0 : 1;
            }
            selected = kept;
        }
        return selected;
    }
}
