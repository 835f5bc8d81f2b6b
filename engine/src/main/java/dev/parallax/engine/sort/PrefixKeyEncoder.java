package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs the sort keys of each row into one 64-bit prefix that compares, as an unsigned long, in
 * the order of the keys: if row a sorts before row b then prefix(a) &lt;= prefix(b), and when the
 * encoder is {@link #isComplete() complete} equal prefixes mean equal keys.
 *
 * <p>The layout is planned per materialized run from what the run holds, so it is as tight as the
 * data allows: keys take bits from the most significant end, in key order. Each key gets
 * <ul>
 *   <li>one null bit, only when the run has a NULL in that column (0 for the rows that go first);</li>
 *   <li>integers, dates, timestamps, decimals and booleans: {@code value - min} over the run, in as
 *       many bits as {@code max - min} needs (a constant column takes none; two ints fit together);</li>
 *   <li>doubles: the IEEE bits with the sign handled so they order as numbers, -0 as 0, NaN last;</li>
 *   <li>text and varchar: the leading bytes big-endian (C collation is unsigned byte order),
 *       zero-padded; char(n) without trailing blanks; bit strings: their bit bytes.</li>
 * </ul>
 * DESC inverts the value bits (not the null bit: NULLS FIRST/LAST does not depend on direction).
 * A key that does not fit keeps its leading bits and ends the prefix; ties then need full comparison.
 */
final class PrefixKeyEncoder {
    private static final VarHandle BIG_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final List<Segment> segments;
    private final boolean complete;

    private PrefixKeyEncoder(List<Segment> segments, boolean complete) {
        this.segments = segments;
        this.complete = complete;
    }

    /** One key's place in the prefix. */
    private record Segment(SortKey key, KeyFamily family, boolean hasNullBit, int valueBits, int droppedBits,
                           int shift, long minimum, int prefixBytes) {
    }

    /** Plans the layout for rows {@code 0..rowCount-1} of {@code rows} (positions, no selection). */
    static PrefixKeyEncoder plan(Batch rows, int rowCount, List<SortKey> keys) {
        List<Segment> segments = new ArrayList<>();
        int remainingBits = Long.SIZE;
        boolean complete = true;
        for (SortKey key : keys) {
            ColumnVector column = rows.column(key.column());
            KeyFamily family = KeyFamily.of(column.type().kind());
            boolean hasNullBit = hasNull(column, rowCount);
            int nullBits = hasNullBit ? 1 : 0;
            if (remainingBits <= nullBits) {
                complete = false;
                break;
            }
            int available = remainingBits - nullBits;
            switch (family) {
                case LONG, DOUBLE -> {
                    long minimum = 0;
                    int valueBits = Long.SIZE;
                    if (family == KeyFamily.LONG) {
                        long[] range = longRange((LongVector) column, rowCount);
                        minimum = range[0];
                        valueBits = Long.SIZE - Long.numberOfLeadingZeros(range[1] - range[0]);
                    }
                    int keptBits = Math.min(valueBits, available);
                    int shift = remainingBits - nullBits - keptBits;
                    segments.add(new Segment(key, family, hasNullBit, valueBits, valueBits - keptBits, shift, minimum, 0));
                    remainingBits -= nullBits + keptBits;
                    if (keptBits < valueBits) {
                        complete = false;
                    }
                }
                case TEXT, BLANK_PADDED_TEXT, BIT_STRING -> {
                    int prefixBytes = available / Byte.SIZE;
                    if (prefixBytes == 0) {
                        complete = false;
                    } else {
                        int shift = remainingBits - nullBits - prefixBytes * Byte.SIZE;
                        segments.add(new Segment(key, family, hasNullBit, prefixBytes * Byte.SIZE, 0, shift, 0, prefixBytes));
                        // Values longer than the prefix tie on it: variable-width keys never complete the prefix.
                        complete = false;
                    }
                    remainingBits = 0;
                }
                case ARRAY -> {
                    // No bits order arrays (their first element's leading bytes would not either); the full comparison does.
                    complete = false;
                }
            }
            if (!complete) {
                break;
            }
        }
        return new PrefixKeyEncoder(List.copyOf(segments), complete);
    }

    /**
     * A layout that does not depend on the rows, for comparing rows of different runs or streams
     * (merges): the leading key alone, in all 64 bits, without a null bit. Use with
     * {@link #encodeLeadingKey}; equal prefixes say nothing, unequal ones order the rows.
     */
    static PrefixKeyEncoder leadingKey(SortKey key, KeyFamily family) {
        Segment segment = switch (family) {
            // value - Long.MIN_VALUE flips the sign bit: a full-width unsigned order of signed longs.
            case LONG -> new Segment(key, family, false, Long.SIZE, 0, 0, Long.MIN_VALUE, 0);
            case DOUBLE -> new Segment(key, family, false, Long.SIZE, 0, 0, 0, 0);
            case TEXT, BLANK_PADDED_TEXT, BIT_STRING -> new Segment(key, family, false, Long.SIZE, 0, 0, 0, Long.BYTES);
            // Every value gets prefix 0: only a NULL's extreme prefix orders anything.
            case ARRAY -> new Segment(key, family, false, 0, 0, 0, 0, 0);
        };
        return new PrefixKeyEncoder(List.of(segment), false);
    }

    /**
     * Encodes the positions {@code 0..rowCount-1} with a {@link #leadingKey} layout. A NULL gets the
     * lowest prefix under NULLS FIRST and the highest under NULLS LAST: never wrongly ordered
     * against a value, and a tie with a value's extreme prefix falls to the full comparison.
     */
    void encodeLeadingKey(Batch rows, int rowCount, long[] prefixes) {
        encode(rows, rowCount, prefixes);
        SortKey key = segments.getFirst().key();
        ColumnVector column = rows.column(key.column());
        if (column.mayHaveNulls()) {
            boolean[] nulls = column.nulls();
            long nullPrefix = key.nullsFirst() ? 0 : -1L;
            for (int row = 0; row < rowCount; row++) {
                if (nulls[row]) {
                    prefixes[row] = nullPrefix;
                }
            }
        }
    }

    /** True when equal prefixes mean equal sort keys, so ties need no full comparison. */
    boolean isComplete() {
        return complete;
    }

    /** Writes the prefixes of rows {@code 0..rowCount-1} into {@code prefixes[0..rowCount)}. */
    void encode(Batch rows, int rowCount, long[] prefixes) {
        java.util.Arrays.fill(prefixes, 0, rowCount, 0L);
        for (Segment segment : segments) {
            ColumnVector column = rows.column(segment.key().column());
            switch (segment.family()) {
                case LONG -> encodeLongs(segment, ((LongVector) column).values(), rowCount, prefixes);
                case DOUBLE -> encodeDoubles(segment, ((DoubleVector) column).values(), rowCount, prefixes);
                case TEXT, BLANK_PADDED_TEXT, BIT_STRING -> encodeBytes(segment, (BytesVector) column, rowCount, prefixes);
                case ARRAY -> {
                }
            }
            if (segment.hasNullBit()) {
                encodeNulls(segment, column.nulls(), rowCount, prefixes);
            }
        }
    }

    private static void encodeLongs(Segment segment, long[] values, int rowCount, long[] prefixes) {
        long minimum = segment.minimum();
        long invert = segment.key().descending() ? valueMask(segment.valueBits()) : 0;
        int dropped = segment.droppedBits();
        int shift = segment.shift();
        // The mask keeps the unspecified value of a NULL slot from reaching its neighbours' bits.
        long keptMask = valueMask(segment.valueBits() - dropped);
        for (int row = 0; row < rowCount; row++) {
            // value - minimum is in [0, max - min] as an unsigned number, so it orders like the value.
            prefixes[row] |= ((((values[row] - minimum) ^ invert) >>> dropped) & keptMask) << shift;
        }
    }

    private static void encodeDoubles(Segment segment, double[] values, int rowCount, long[] prefixes) {
        long invert = segment.key().descending() ? -1L : 0;
        int dropped = segment.droppedBits();
        int shift = segment.shift();
        for (int row = 0; row < rowCount; row++) {
            prefixes[row] |= ((sortableDoubleBits(values[row]) ^ invert) >>> dropped) << shift;
        }
    }

    /** IEEE bits rearranged to order as unsigned longs: negatives inverted, positives with the sign bit set. */
    static long sortableDoubleBits(double value) {
        long bits;
        if (value == 0.0) {
            bits = 0; // -0.0 equals 0.0
        } else if (Double.isNaN(value)) {
            bits = 0x7ff8000000000000L; // every NaN is one value, above +Infinity once flipped
        } else {
            bits = Double.doubleToRawLongBits(value);
        }
        return bits ^ ((bits >> 63) | Long.MIN_VALUE);
    }

    private static void encodeBytes(Segment segment, BytesVector column, int rowCount, long[] prefixes) {
        byte[] data = column.data();
        int[] offsets = column.offsets();
        int[] lengths = column.lengths();
        int prefixBytes = segment.prefixBytes();
        int shift = segment.shift();
        long invert = segment.key().descending() ? valueMask(segment.valueBits()) : 0;
        KeyFamily family = segment.family();
        int skip = family == KeyFamily.BIT_STRING ? BitString.HEADER_BYTES : 0;
        boolean trimBlanks = family == KeyFamily.BLANK_PADDED_TEXT;
        boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
        for (int row = 0; row < rowCount; row++) {
            if (nulls != null && nulls[row]) {
                continue; // the offsets of a NULL slot mean nothing; the null bit orders it
            }
            int offset = offsets[row] + skip;
            int length = lengths[row] - skip;
            if (trimBlanks) {
                length = ValueOrder.blankTrimmedLength(data, offset, length);
            }
            long value;
            if (length >= Long.BYTES) {
                value = (long) BIG_ENDIAN_LONG.get(data, offset) >>> (Long.SIZE - prefixBytes * Byte.SIZE);
            } else {
                value = leadingBytes(data, offset, Math.min(length, prefixBytes), prefixBytes);
            }
            prefixes[row] |= (value ^ invert) << shift;
        }
    }

    /** The first {@code count} bytes big-endian, zero-padded to {@code width} bytes. */
    private static long leadingBytes(byte[] data, int offset, int count, int width) {
        long value = 0;
        for (int index = 0; index < count; index++) {
            value = (value << Byte.SIZE) | (data[offset + index] & 0xFF);
        }
        return value << (Byte.SIZE * (width - count));
    }

    private static void encodeNulls(Segment segment, boolean[] nulls, int rowCount, long[] prefixes) {
        long nullBit = 1L << (segment.shift() + segment.valueBits() - segment.droppedBits());
        long valueMask = valueMask(segment.valueBits() - segment.droppedBits()) << segment.shift();
        boolean nullsFirst = segment.key().nullsFirst();
        for (int row = 0; row < rowCount; row++) {
            if (nulls[row]) {
                // A NULL has no value bits; its flag alone places it before or after every value.
                prefixes[row] &= ~valueMask;
                if (!nullsFirst) {
                    prefixes[row] |= nullBit;
                }
            } else if (nullsFirst) {
                prefixes[row] |= nullBit;
            }
        }
    }

    private static long valueMask(int bits) {
        return bits >= Long.SIZE ? -1L : (1L << bits) - 1;
    }

    private static boolean hasNull(ColumnVector column, int rowCount) {
        if (!column.mayHaveNulls()) {
            return false;
        }
        boolean[] nulls = column.nulls();
        for (int row = 0; row < rowCount; row++) {
            if (nulls[row]) {
                return true;
            }
        }
        return false;
    }

    /** Minimum and maximum of the non-null values ({0, 0} when there are none). */
    private static long[] longRange(LongVector column, int rowCount) {
        long[] values = column.values();
        boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
        long minimum = Long.MAX_VALUE;
        long maximum = Long.MIN_VALUE;
        for (int row = 0; row < rowCount; row++) {
            if (nulls == null || !nulls[row]) {
                long value = values[row];
                minimum = Math.min(minimum, value);
                maximum = Math.max(maximum, value);
            }
        }
        return minimum > maximum ? new long[] {0, 0} : new long[] {minimum, maximum};
    }
}
