package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code value [NOT] IN (c1, c2, ...)} over non-NULL constants of the value's representation
 * (integers and decimals of one scale, or text): the value is evaluated once per batch and each
 * row compared with the constants, instead of one comparison (and one evaluation of the value)
 * per element as the OR expansion does. A NULL value gives NULL; with non-NULL elements that is
 * the only NULL outcome.
 */
final class InListEvaluator extends Evaluator {
    private final Evaluator value;
    private final long[] longElements;
    private final byte[][] textElements;
    private final boolean padded;
    private final boolean negated;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);

    private InListEvaluator(Evaluator value, long[] longElements, byte[][] textElements, boolean padded, boolean negated) {
        super(DataType.BOOLEAN);
        this.value = value;
        this.longElements = longElements;
        this.textElements = textElements;
        this.padded = padded;
        this.negated = negated;
    }

    /** The evaluator for integer or decimal elements already scaled like the value. */
    static InListEvaluator ofLongs(Evaluator value, long[] elements, boolean negated) {
        return new InListEvaluator(value, elements, null, false, negated);
    }

    /** The evaluator for text elements; {@code padded} compares ignoring trailing blanks (a CHAR(n) side). */
    static InListEvaluator ofText(Evaluator value, byte[][] elements, boolean padded, boolean negated) {
        return new InListEvaluator(value, null, elements, padded, negated);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector values = value.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        long[] out = result.values();
        boolean[] nulls = nullsOf(values);
        long hit = negated ? 0 : 1;
        if (longElements != null) {
            long[] longs = ((LongVector) values).values();
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                if (isNull(nulls, position)) {
                    result.setNull(position);
                    continue;
                }
                long candidate = longs[position];
                boolean found = false;
                for (long element : longElements) {
                    found |= element == candidate;
                }
                out[position] = found ? hit : 1 - hit;
            }
        } else {
            BytesVector texts = (BytesVector) values;
            byte[] data = texts.data();
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                if (isNull(nulls, position)) {
                    result.setNull(position);
                    continue;
                }
                int offset = texts.offset(position);
                int length = texts.length(position);
                boolean found = false;
                for (int element = 0; element < textElements.length && !found; element++) {
                    byte[] constant = textElements[element];
                    found = ComparisonEvaluator.compareText(data, offset, length, constant, 0, constant.length, padded) == 0;
                }
                out[position] = found ? hit : 1 - hit;
            }
        }
        return result;
    }
}
