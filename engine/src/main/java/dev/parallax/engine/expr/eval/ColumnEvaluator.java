package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/** An input column, handed through without copying. */
final class ColumnEvaluator extends Evaluator {
    private final int index;

    ColumnEvaluator(int index, DataType type) {
        super(type);
        this.index = index;
    }

    int index() {
        return index;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        return input.column(index);
    }
}
