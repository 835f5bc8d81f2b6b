package dev.parallax.engine.expr.eval;

import dev.parallax.engine.sort.ValueOrder;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * Equality of array elements with each other and with a value of the element type, as PostgreSQL's
 * array functions compare them: integers, decimals (one scale per element type), dates and the like
 * by their long; doubles as float8's {@code =} (NaN equals NaN, -0 equals 0); text and the other
 * byte forms by their bytes (Parallax's canonical forms). Callers handle NULLs themselves.
 */
final class ArrayElements {
    private ArrayElements() {
    }

    /** Whether element {@code index} of the array at {@code offset} equals the value at {@code position} of {@code value}. */
    static boolean equalsValue(VectorKind kind, byte[] data, int offset, int index, ColumnVector value, int position) {
        return switch (kind) {
            case LONG -> ArrayValue.longAt(data, offset, index) == ((LongVector) value).values()[position];
            case DOUBLE -> ValueOrder.compareDoubles(ArrayValue.doubleAt(data, offset, index), ((DoubleVector) value).values()[position]) == 0;
            case BYTES -> {
                BytesVector bytes = (BytesVector) value;
                int start = ArrayValue.bytesOffset(data, offset, index);
                yield Arrays.equals(data, start, start + ArrayValue.bytesLength(data, offset, index),
                        bytes.data(), bytes.offset(position), bytes.offset(position) + bytes.length(position));
            }
        };
    }

    /** Whether element {@code leftIndex} of one array equals element {@code rightIndex} of another (both non-NULL). */
    static boolean equalElements(VectorKind kind, byte[] left, int leftOffset, int leftIndex, byte[] right, int rightOffset, int rightIndex) {
        return switch (kind) {
            case LONG -> ArrayValue.longAt(left, leftOffset, leftIndex) == ArrayValue.longAt(right, rightOffset, rightIndex);
            case DOUBLE -> ValueOrder.compareDoubles(ArrayValue.doubleAt(left, leftOffset, leftIndex),
                    ArrayValue.doubleAt(right, rightOffset, rightIndex)) == 0;
            case BYTES -> {
                int leftStart = ArrayValue.bytesOffset(left, leftOffset, leftIndex);
                int rightStart = ArrayValue.bytesOffset(right, rightOffset, rightIndex);
                yield Arrays.equals(left, leftStart, leftStart + ArrayValue.bytesLength(left, leftOffset, leftIndex),
                        right, rightStart, rightStart + ArrayValue.bytesLength(right, rightOffset, rightIndex));
            }
        };
    }
}
