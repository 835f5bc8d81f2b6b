package dev.parallax.engine.sort;

import dev.parallax.engine.type.BitString;

import java.util.Arrays;

/**
 * Three-way comparisons of single values in PostgreSQL's order, shared by every comparator of this
 * package; {@link #compareDoubles} also by the index scan and the array functions.
 */
public final class ValueOrder {
    private static final byte BLANK = ' ';

    private ValueOrder() {
    }

    /** PostgreSQL's float order: -0 equals 0, NaN equals NaN and sorts above every number. */
    public static int compareDoubles(double left, double right) {
        if (left < right) {
            return -1;
        }
        if (left > right) {
            return 1;
        }
        if (left == right) {
            return 0;
        }
        // At least one NaN: PostgreSQL's float8 ordering treats NaNs as equal and above all numbers.
        boolean leftNaN = Double.isNaN(left);
        return leftNaN == Double.isNaN(right) ? 0 : (leftNaN ? 1 : -1);
    }

    /** Unsigned byte order, shorter first on a common prefix; identical bytes compare with one vectorized mismatch. */
    static int compareBytes(byte[] left, int leftOffset, int leftLength, byte[] right, int rightOffset, int rightLength) {
        return Arrays.compareUnsigned(left, leftOffset, leftOffset + leftLength, right, rightOffset, rightOffset + rightLength);
    }

    /** Length of a char(n) value without its trailing blanks (PostgreSQL's bcTruelen). */
    static int blankTrimmedLength(byte[] data, int offset, int length) {
        int end = length;
        while (end > 0 && data[offset + end - 1] == BLANK) {
            end--;
        }
        return end;
    }

    static int compareBlankPadded(byte[] left, int leftOffset, int leftLength, byte[] right, int rightOffset, int rightLength) {
        return compareBytes(left, leftOffset, blankTrimmedLength(left, leftOffset, leftLength),
                right, rightOffset, blankTrimmedLength(right, rightOffset, rightLength));
    }

    /** PostgreSQL's bit_cmp: the common bit bytes first (padding bits are zero), then the bit counts. */
    static int compareBitStrings(byte[] left, int leftOffset, int leftLength, byte[] right, int rightOffset, int rightLength) {
        int common = Math.min(leftLength, rightLength) - BitString.HEADER_BYTES;
        int order = compareBytes(left, leftOffset + BitString.HEADER_BYTES, common, right, rightOffset + BitString.HEADER_BYTES, common);
        if (order != 0) {
            return order;
        }
        return Integer.compare(BitString.bitCount(left, leftOffset), BitString.bitCount(right, rightOffset));
    }
}
