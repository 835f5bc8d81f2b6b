package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

/**
 * PostgreSQL's {@code concat(value, ...)} and {@code concat_ws(separator, value, ...)} over the
 * values' text forms (the compiler converts them first): NULL values are skipped, so concat is
 * never NULL ({@code ''} when every value is); concat_ws puts the separator between the non-NULL
 * values and is NULL when the separator is.
 */
final class ConcatenationEvaluator extends Evaluator {
    private final Evaluator separator;
    private final Evaluator[] values;
    private final BytesVector[] valueVectors;
    private final boolean[][] valueNulls;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);

    /** {@code separator} null: concat; otherwise concat_ws. {@code values} are text. */
    ConcatenationEvaluator(Evaluator separator, Evaluator[] values) {
        super(DataType.TEXT);
        this.separator = separator;
        this.values = values;
        this.valueVectors = new BytesVector[values.length];
        this.valueNulls = new boolean[values.length][];
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector separatorVector = separator == null ? null : (BytesVector) separator.evaluate(input, selection, count);
        boolean[] separatorNulls = separatorVector == null ? null : nullsOf(separatorVector);
        for (int value = 0; value < values.length; value++) {
            valueVectors[value] = (BytesVector) values[value].evaluate(input, selection, count);
            valueNulls[value] = nullsOf(valueVectors[value]);
        }
        BytesVector result = prepare(output, input);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(separatorNulls, position)) {
                result.setNull(position);
                continue;
            }
            int separatorLength = separatorVector == null ? 0 : separatorVector.length(position);
            int length = 0;
            int present = 0;
            for (int value = 0; value < values.length; value++) {
                if (!isNull(valueNulls[value], position)) {
                    length += valueVectors[value].length(position);
                    present++;
                }
            }
            if (present > 1) {
                length += (present - 1) * separatorLength;
            }
            int target = result.reserve(position, length);
            byte[] out = result.data();
            boolean first = true;
            for (int value = 0; value < values.length; value++) {
                if (isNull(valueNulls[value], position)) {
                    continue;
                }
                if (!first && separatorLength > 0) {
                    System.arraycopy(separatorVector.data(), separatorVector.offset(position), out, target, separatorLength);
                    target += separatorLength;
                }
                first = false;
                BytesVector vector = valueVectors[value];
                int valueLength = vector.length(position);
                System.arraycopy(vector.data(), vector.offset(position), out, target, valueLength);
                target += valueLength;
            }
        }
        return result;
    }
}
