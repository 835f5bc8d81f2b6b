package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;

/**
 * pg_size_pretty(bigint) and pg_size_pretty(numeric) as PostgreSQL 15 prints them: bytes below
 * 10240, then kB, MB, GB, TB below 20479 of the unit (half rounded away from zero), else PB; each step
 * divides with truncation toward zero by one bit less than the unit when the next unit rounds, so
 * that the rounding happens once. A numeric below 10240 bytes keeps its scale ({@code 10.5 bytes}),
 * larger ones are truncated to whole bytes first. Text is written into one reused buffer: no
 * allocation per row. {@link #text(long)} gives the same form for one byte count (the shell's
 * {@code \d+} listings).
 */
public final class SizePrettyEvaluator extends Evaluator {
    private static final byte[][] UNITS = {bytes(" bytes"), bytes(" kB"), bytes(" MB"), bytes(" GB"), bytes(" TB"), bytes(" PB")};
    private static final long[] LIMITS = {10 * 1024, 20 * 1024 - 1, 20 * 1024 - 1, 20 * 1024 - 1, 20 * 1024 - 1, 0};
    private static final int UNIT_BITS = 10;

    private final Evaluator size;
    private final int scale;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    /** Sign, 19 digits, a point and 18 fraction digits, and the longest unit. */
    private final byte[] text = new byte[48];

    SizePrettyEvaluator(Evaluator size) {
        super(DataType.TEXT);
        this.size = size;
        this.scale = size.type().kind() == TypeKind.DECIMAL ? size.type().scale() : 0;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        LongVector sizes = (LongVector) size.evaluate(input, selection, count);
        long[] values = sizes.values();
        boolean[] nulls = nullsOf(sizes);
        boolean anyNull = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                result.setNull(position);
                anyNull = true;
                continue;
            }
            result.set(position, text, 0, format(values[position], scale, text));
        }
        if (anyNull) {
            result.markMayHaveNulls();
        }
        return result;
    }

    /** pg_size_pretty(bigint) of {@code bytes}, as PostgreSQL 15 writes it (e.g. {@code 8192 bytes}, {@code 25 MB}). */
    public static String text(long bytes) {
        byte[] buffer = new byte[48];
        return new String(buffer, 0, format(bytes, 0, buffer), StandardCharsets.US_ASCII);
    }

    /** Writes the pretty form of {@code value} (unscaled by {@code scale}) into {@code text}; returns its length. */
    private static int format(long value, int scale, byte[] text) {
        long whole = scale == 0 ? value : value / DecimalMath.powerOfTen(scale);
        if (below(whole, LIMITS[0])) {
            int length = scale == 0 ? writeLong(value, 0, text) : writeDecimal(value, scale, text);
            return appendUnit(length, 0, text);
        }
        // Bytes do not round and kB do: one bit less, the last bit decides the half rounding.
        long current = whole / (1L << (UNIT_BITS - 1));
        int unit = 1;
        while (unit < UNITS.length - 1 && !below(current, LIMITS[unit])) {
            current /= 1L << UNIT_BITS;
            unit++;
        }
        long rounded = (current + (current < 0 ? -1 : 1)) / 2;
        return appendUnit(writeLong(rounded, 0, text), unit, text);
    }

    /** |value| < limit, with Long.MIN_VALUE as large as it is (Math.abs would leave it negative). */
    private static boolean below(long value, long limit) {
        return value > -limit && value < limit;
    }

    private static int appendUnit(int length, int unit, byte[] text) {
        byte[] name = UNITS[unit];
        System.arraycopy(name, 0, text, length, name.length);
        return length + name.length;
    }

    /** Writes {@code value} in decimal at {@code from}; returns the end. */
    private static int writeLong(long value, int from, byte[] text) {
        int position = from;
        if (value < 0) {
            text[position++] = '-';
        }
        int start = position;
        // Negative digits: Long.MIN_VALUE has no positive counterpart.
        long remaining = value < 0 ? value : -value;
        do {
            text[position++] = (byte) ('0' - remaining % 10);
            remaining /= 10;
        } while (remaining != 0);
        reverse(start, position, text);
        return position;
    }

    /** Writes the numeric {@code unscaled} / 10^scale with all its scale's digits. */
    private static int writeDecimal(long unscaled, int scale, byte[] text) {
        long divisor = DecimalMath.powerOfTen(scale);
        long whole = unscaled / divisor;
        long fraction = Math.abs(unscaled % divisor);
        int position = 0;
        if (unscaled < 0 && whole == 0) {
            text[position++] = '-';
        }
        position = writeLong(whole, position, text);
        text[position++] = '.';
        for (long digit = divisor / 10; digit > 0; digit /= 10) {
            text[position++] = (byte) ('0' + fraction / digit % 10);
        }
        return position;
    }

    private static void reverse(int from, int to, byte[] text) {
        for (int left = from, right = to - 1; left < right; left++, right--) {
            byte swap = text[left];
            text[left] = text[right];
            text[right] = swap;
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
