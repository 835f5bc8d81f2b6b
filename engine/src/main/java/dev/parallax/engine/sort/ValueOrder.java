package dev.parallax.engine.sort;

import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;

/**
 * Three-way comparisons of single values in PostgreSQL's order, shared by every comparator of this
 * package; {@link #compareDoubles} and {@link #compareElements} also by the index scan and the array functions,
 * {@link #compareArrays} also by the comparison operators.
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

    /**
     * PostgreSQL's array_cmp for two encoded arrays of {@code arrayType} (see {@link ArrayValue}):
     * element by element in the element type's order, a NULL element larger than any value; on a
     * common prefix the shorter array first; equal elements and lengths are ordered by lower bound.
     */
    public static int compareArrays(DataType arrayType, byte[] left, int leftOffset, byte[] right, int rightOffset) {
        DataType element = arrayType.element();
        int leftCount = ArrayValue.count(left, leftOffset);
        int rightCount = ArrayValue.count(right, rightOffset);
        int common = Math.min(leftCount, rightCount);
        for (int index = 0; index < common; index++) {
            boolean leftNull = ArrayValue.isNull(left, leftOffset, index);
            boolean rightNull = ArrayValue.isNull(right, rightOffset, index);
            int order;
            if (leftNull || rightNull) {
                order = leftNull == rightNull ? 0 : (leftNull ? 1 : -1);
            } else {
                order = compareElements(element, left, leftOffset, index, right, rightOffset, index);
            }
            if (order != 0) {
                return order;
            }
        }
        if (leftCount != rightCount) {
            return leftCount < rightCount ? -1 : 1;
        }
        return leftCount == 0 ? 0 : Integer.compare(ArrayValue.lowerBound(left, leftOffset), ArrayValue.lowerBound(right, rightOffset));
    }

    /**
     * Element {@code leftIndex} of the encoded array at {@code leftOffset} against element
     * {@code rightIndex} of the one at {@code rightOffset}, both non-NULL, in {@code element}'s order.
     */
    public static int compareElements(DataType element, byte[] left, int leftOffset, int leftIndex,
                                      byte[] right, int rightOffset, int rightIndex) {
        return switch (element.vectorKind()) {
            case LONG -> Long.compare(ArrayValue.longAt(left, leftOffset, leftIndex), ArrayValue.longAt(right, rightOffset, rightIndex));
            case DOUBLE -> compareDoubles(ArrayValue.doubleAt(left, leftOffset, leftIndex), ArrayValue.doubleAt(right, rightOffset, rightIndex));
            case BYTES -> {
                int leftStart = ArrayValue.bytesOffset(left, leftOffset, leftIndex);
                int leftLength = ArrayValue.bytesLength(left, leftOffset, leftIndex);
                int rightStart = ArrayValue.bytesOffset(right, rightOffset, rightIndex);
                int rightLength = ArrayValue.bytesLength(right, rightOffset, rightIndex);
                yield switch (element.kind()) {
                    case CHAR -> compareBlankPadded(left, leftStart, leftLength, right, rightStart, rightLength);
                    case BIT, VARBIT -> compareBitStrings(left, leftStart, leftLength, right, rightStart, rightLength);
                    default -> compareBytes(left, leftStart, leftLength, right, rightStart, rightLength);
                };
            }
        };
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
