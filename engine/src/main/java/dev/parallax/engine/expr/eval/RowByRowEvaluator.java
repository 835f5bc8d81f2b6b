package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/**
 * An evaluator whose result is computed one row at a time from its arguments' vectors: functions
 * over arrays, whose values vary in shape from row to row, so a kernel per combination would not
 * pay. The arguments are evaluated over the batch first; {@link #evaluateRow} then reads
 * {@link #vectors} at each position.
 */
abstract class RowByRowEvaluator extends Evaluator {
    final Evaluator[] arguments;
    /** The arguments' vectors of the batch being evaluated. */
    final ColumnVector[] vectors;
    private final ColumnVector output;

    RowByRowEvaluator(Evaluator[] arguments, DataType resultType) {
        super(resultType);
        this.arguments = arguments;
        this.vectors = new ColumnVector[arguments.length];
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
    }

    /** Writes the result at {@code position} of {@code result}; false when it is NULL. */
    abstract boolean evaluateRow(ColumnVector result, int position);

    @Override
    final ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        for (int argument = 0; argument < arguments.length; argument++) {
            vectors[argument] = arguments[argument].evaluate(input, selection, count);
        }
        boolean anyNull = false;
        boolean[] nulls = result.nulls();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (!evaluateRow(result, position)) {
                nulls[position] = true;
                anyNull = true;
            }
        }
        if (anyNull) {
            result.markMayHaveNulls();
        }
        return result;
    }
}
