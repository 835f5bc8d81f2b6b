package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.LikePattern;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * Integer and boolean answers about text, read in place: strpos(text, substring) (the first
 * occurrence's character position, 0 when absent, 1 for an empty substring), ascii(text) (the first
 * character's code point, 0 for the empty text), octet_length and bit_length (bytes, bits), and
 * starts_with(text, prefix). Strict: NULL in, NULL out.
 */
final class TextMeasureEvaluator extends Evaluator {
    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector[] argumentVectors;
    private final LongVector output;
    private final NonNullPositions nonNull = new NonNullPositions();

    /** {@code arguments}: text; STRPOS and STARTS_WITH a second text. */
    TextMeasureEvaluator(Function function, Evaluator[] arguments) {
        super(function == Function.STARTS_WITH ? DataType.BOOLEAN : DataType.INTEGER);
        this.function = function;
        this.arguments = arguments;
        this.argumentVectors = new ColumnVector[arguments.length];
        this.output = new LongVector(type(), Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        if (count == 0) {
            // Every row had a NULL argument; an untyped NULL's vector is not text.
            return result;
        }
        BytesVector text = (BytesVector) argumentVectors[0];
        byte[] data = text.data();
        long[] values = result.values();
        switch (function) {
            case STRPOS -> {
                BytesVector search = (BytesVector) argumentVectors[1];
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    int offset = text.offset(position);
                    int found = LikePattern.indexOf(data, offset, text.length(position), search.data(), search.offset(position),
                            search.length(position));
                    values[position] = found < 0 ? 0 : Utf8.characterCount(data, offset, found) + 1;
                }
            }
            case ASCII -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    int offset = text.offset(position);
                    int end = offset + text.length(position);
                    values[position] = offset == end ? 0 : Utf8.codePoint(data, offset, Utf8.characterEnd(data, offset, end));
                }
            }
            case OCTET_LENGTH, BIT_LENGTH -> {
                int bitsPerUnit = function == Function.BIT_LENGTH ? 8 : 1;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    values[position] = (long) text.length(position) * bitsPerUnit;
                }
            }
            case STARTS_WITH -> {
                BytesVector prefixes = (BytesVector) argumentVectors[1];
                byte[] prefixData = prefixes.data();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    int offset = text.offset(position);
                    int prefixOffset = prefixes.offset(position);
                    int prefixLength = prefixes.length(position);
                    values[position] = prefixLength <= text.length(position)
                            && Arrays.equals(data, offset, offset + prefixLength, prefixData, prefixOffset, prefixOffset + prefixLength) ? 1 : 0;
                }
            }
            default -> throw new IllegalStateException("not a text measure: " + function);
        }
        return result;
    }
}
