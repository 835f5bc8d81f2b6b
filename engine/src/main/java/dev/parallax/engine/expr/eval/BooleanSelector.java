package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

/** Selects the rows where a boolean expression is TRUE; the general form of any predicate. */
final class BooleanSelector extends Selector {
    private final Evaluator condition;

    BooleanSelector(Evaluator condition) {
        this.condition = condition;
    }

    @Override
    int select(Batch input, int[] selection, int count, int[] out) {
        LongVector result = (LongVector) condition.evaluate(input, selection, count);
        long[] values = result.values();
        boolean[] nulls = Evaluator.nullsOf(result);
        int selected = 0;
        if (selection == null) {
            for (int position = 0; position < count; position++) {
                out[selected] = position;
                selected += (values[position] != 0 && (nulls == null || !nulls[position])) ? 1 : 0;
            }
        } else {
            for (int index = 0; index < count; index++) {
                int position = selection[index];
                out[selected] = position;
                selected += (values[position] != 0 && (nulls == null || !nulls[position])) ? 1 : 0;
            }
        }
        return selected;
    }
}
