package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Text made from an integer, written straight into the output: chr(code point) as PostgreSQL does
 * in a UTF-8 database (22023 below 0; 54000 for 0, past U+10FFFF and for the surrogates
 * U+D800..U+DFFF), and to_hex(integer or bigint), the value's two's complement in lower-case
 * hexadecimal digits (32 bits for an integer, 64 for a bigint). Strict: NULL in, NULL out.
 */
final class IntegerTextEvaluator extends Evaluator {
    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

    private final Function function;
    private final Evaluator argument;
    private final boolean sixtyFourBits;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final NonNullPositions nonNull = new NonNullPositions();

    IntegerTextEvaluator(Function function, Evaluator argument) {
        super(DataType.TEXT);
        this.function = function;
        this.argument = argument;
        this.sixtyFourBits = argument.type().kind() == TypeKind.BIGINT;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        ColumnVector vector = argument.evaluate(input, selection, count);
        boolean[] nulls = nullsOf(vector);
        if (nulls != null) {
            count = nonNull.narrow(nulls, input, selection, count, result);
            selection = nonNull.positions();
        }
        if (count == 0) {
            return result;
        }
        long[] values = ((LongVector) vector).values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            long value = values[position];
            if (function == Function.CHR) {
                character(result, position, value);
            } else {
                hexadecimal(result, position, sixtyFourBits ? value : value & 0xFFFF_FFFFL);
            }
        }
        return result;
    }

    private static void character(BytesVector result, int position, long codePoint) {
        if (codePoint < 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "character number must be positive");
        }
        if (codePoint == 0) {
            throw new ParallaxException(SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
        }
        if (codePoint > 0x10FFFF) {
            throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character too large for encoding: %d", codePoint);
        }
        if (codePoint >= 0xD800 && codePoint <= 0xDFFF) {
            throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: %d", codePoint);
        }
        int value = (int) codePoint;
        if (value < 0x80) {
            result.data()[result.reserve(position, 1)] = (byte) value;
        } else if (value < 0x800) {
            int at = result.reserve(position, 2);
            byte[] out = result.data();
            out[at] = (byte) (0xC0 | value >> 6);
            out[at + 1] = (byte) (0x80 | value & 0x3F);
        } else if (value < 0x10000) {
            int at = result.reserve(position, 3);
            byte[] out = result.data();
            out[at] = (byte) (0xE0 | value >> 12);
            out[at + 1] = (byte) (0x80 | value >> 6 & 0x3F);
            out[at + 2] = (byte) (0x80 | value & 0x3F);
        } else {
            int at = result.reserve(position, 4);
            byte[] out = result.data();
            out[at] = (byte) (0xF0 | value >> 18);
            out[at + 1] = (byte) (0x80 | value >> 12 & 0x3F);
            out[at + 2] = (byte) (0x80 | value >> 6 & 0x3F);
            out[at + 3] = (byte) (0x80 | value & 0x3F);
        }
    }

    /** The unsigned {@code bits} in hexadecimal, without leading zeros ("0" for zero). */
    private static void hexadecimal(BytesVector result, int position, long bits) {
        int digits = bits == 0 ? 1 : (64 - Long.numberOfLeadingZeros(bits) + 3) / 4;
        int at = result.reserve(position, digits);
        byte[] out = result.data();
        for (int digit = digits - 1; digit >= 0; digit--) {
            out[at + digit] = HEX[(int) (bits & 0xF)];
            bits >>>= 4;
        }
    }
}
