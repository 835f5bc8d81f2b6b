package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.SqlQuoting;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

/**
 * quote_ident(text), quote_literal(value) and quote_nullable(value) over the value's text form (the
 * compiler converts it first), quoted as {@link SqlQuoting} does in a reused buffer. quote_ident
 * and quote_literal are strict; quote_nullable gives the text {@code NULL} for NULL.
 */
final class QuoteEvaluator extends Evaluator {
    private static final byte[] NULL_TEXT = {'N', 'U', 'L', 'L'};

    private final Function function;
    private final Evaluator argument;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final ByteBuilder buffer = new ByteBuilder();

    QuoteEvaluator(Function function, Evaluator argument) {
        super(DataType.TEXT);
        this.function = function;
        this.argument = argument;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        ColumnVector vector = argument.evaluate(input, selection, count);
        boolean[] nulls = nullsOf(vector);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                if (function == Function.QUOTE_NULLABLE) {
                    result.set(position, NULL_TEXT, 0, NULL_TEXT.length);
                } else {
                    result.setNull(position);
                }
                continue;
            }
            BytesVector text = (BytesVector) vector;
            buffer.clear();
            if (function == Function.QUOTE_IDENT) {
                SqlQuoting.appendIdentifier(buffer, text.data(), text.offset(position), text.length(position));
            } else {
                SqlQuoting.appendLiteral(buffer, text.data(), text.offset(position), text.length(position));
            }
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
    }
}
