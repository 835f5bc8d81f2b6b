package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * A boolean's output form, {@code t} or {@code f} (PostgreSQL's boolout), as text: what {@code ||}
 * and {@code concat} append for a boolean, unlike {@code CAST(b AS text)}, which gives {@code true}.
 */
final class BooleanOutputEvaluator extends Evaluator {
    private static final byte[] TRUE_OUTPUT = {'t'};
    private static final byte[] FALSE_OUTPUT = {'f'};

    private final Evaluator operand;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);

    BooleanOutputEvaluator(Evaluator operand) {
        super(DataType.TEXT);
        this.operand = operand;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector values = (LongVector) operand.evaluate(input, selection, count);
        BytesVector result = prepare(output, input);
        boolean[] nulls = nullsOf(values);
        long[] booleans = values.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                result.setNull(position);
            } else {
                result.set(position, booleans[position] != 0 ? TRUE_OUTPUT : FALSE_OUTPUT, 0, 1);
            }
        }
        return result;
    }
}
