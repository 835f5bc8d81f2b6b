package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code &}, {@code |}, {@code #}, {@code ~}, {@code <<}, {@code >>} (and bitand) on bit strings —
 * byte-wise over the packed bits, equal lengths required ("cannot AND bit strings of different
 * sizes", 22026) — and on integers, wrapped to the integer's width as PostgreSQL's C code does.
 */
final class BitwiseEvaluator extends Evaluator {
    private final Function function;
    private final Evaluator left;
    private final Evaluator right;
    private final boolean bits;
    private final TypeKind kind;
    private final ColumnVector output;
    private int[] scratch = new int[0];

    BitwiseEvaluator(Function function, Evaluator left, Evaluator right, DataType resultType) {
        super(resultType);
        this.function = function;
        this.left = left;
        this.right = right;
        this.bits = left.type().kind().isBitString();
        this.kind = resultType.kind();
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector leftVector = left.evaluate(input, selection, count);
        ColumnVector rightVector = right == null ? null : right.evaluate(input, selection, count);
        ColumnVector result = prepare(output, input);
        boolean[] leftNulls = nullsOf(leftVector);
        boolean[] rightNulls = rightVector == null ? null : nullsOf(rightVector);
        if (leftNulls != null || rightNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, leftNulls, rightNulls, result, scratch);
            selection = scratch;
        }
        if (bits) {
            bitStrings((BytesVector) leftVector, rightVector, (BytesVector) result, selection, count);
        } else {
            integers(((LongVector) leftVector).values(), rightVector == null ? null : ((LongVector) rightVector).values(),
                    ((LongVector) result).values(), selection, count);
        }
        return result;
    }

    private void integers(long[] leftValues, long[] rightValues, long[] out, int[] selection, int count) {
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            long value = leftValues[position];
            long other = rightValues == null ? 0 : rightValues[position];
            long computed = switch (function) {
                case BIT_AND -> value & other;
                case BIT_OR -> value | other;
                case BIT_XOR -> value ^ other;
                case BIT_NOT -> ~value;
                case SHIFT_LEFT -> value << other;
                case SHIFT_RIGHT -> value >> other;
                default -> throw new IllegalStateException("not bitwise: " + function);
            };
            out[position] = switch (kind) {
                case SMALLINT -> (short) computed;
                case INTEGER -> (int) (kind == TypeKind.INTEGER && (function == Function.SHIFT_LEFT || function == Function.SHIFT_RIGHT)
                        ? (function == Function.SHIFT_LEFT ? (int) value << other : (int) value >> other) : computed);
                default -> computed;
            };
        }
    }

    private void bitStrings(BytesVector leftBytes, ColumnVector rightVector, BytesVector out, int[] selection, int count) {
        byte[] leftData = leftBytes.data();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int leftOffset = leftBytes.offset(position);
            int length = leftBytes.length(position);
            int bitCount = BitString.bitCount(leftData, leftOffset);
            int target = out.reserve(position, length);
            byte[] outData = out.data();
            // Re-read the source array: reserve may have grown the output, never the input.
            switch (function) {
                case BIT_AND, BIT_OR, BIT_XOR -> {
                    BytesVector rightBytes = (BytesVector) rightVector;
                    byte[] rightData = rightBytes.data();
                    int rightOffset = rightBytes.offset(position);
                    if (BitString.bitCount(rightData, rightOffset) != bitCount) {
                        String name = function == Function.BIT_AND ? "AND" : function == Function.BIT_OR ? "OR" : "XOR";
                        throw ParallaxException.of(SqlState.STRING_DATA_LENGTH_MISMATCH,
                                "cannot %s bit strings of different sizes", name);
                    }
                    System.arraycopy(leftData, leftOffset, outData, target, BitString.HEADER_BYTES);
                    for (int byteIndex = BitString.HEADER_BYTES; byteIndex < length; byteIndex++) {
                        byte a = leftData[leftOffset + byteIndex];
                        byte b = rightData[rightOffset + byteIndex];
                        outData[target + byteIndex] = (byte) (function == Function.BIT_AND ? a & b
                                : function == Function.BIT_OR ? a | b : a ^ b);
                    }
                }
                case BIT_NOT -> {
                    System.arraycopy(leftData, leftOffset, outData, target, BitString.HEADER_BYTES);
                    for (int byteIndex = BitString.HEADER_BYTES; byteIndex < length; byteIndex++) {
                        outData[target + byteIndex] = (byte) ~leftData[leftOffset + byteIndex];
                    }
                    clearPadding(outData, target, length, bitCount);
                }
                case SHIFT_LEFT, SHIFT_RIGHT -> {
                    long shift = ((LongVector) rightVector).values()[position];
                    if (function == Function.SHIFT_RIGHT) {
                        shift = -shift;
                    }
                    System.arraycopy(leftData, leftOffset, outData, target, BitString.HEADER_BYTES);
                    for (int byteIndex = BitString.HEADER_BYTES; byteIndex < length; byteIndex++) {
                        outData[target + byteIndex] = 0;
                    }
                    for (int bit = 0; bit < bitCount; bit++) {
                        long source = bit + shift;
                        if (source >= 0 && source < bitCount
                                && (leftData[leftOffset + BitString.HEADER_BYTES + (int) (source / 8)] & (0x80 >>> (source % 8))) != 0) {
                            outData[target + BitString.HEADER_BYTES + bit / 8] |= (byte) (0x80 >>> (bit % 8));
                        }
                    }
                }
                default -> throw new IllegalStateException("not bitwise: " + function);
            }
        }
    }

    /** Keeps the unused low bits of the last byte zero, as the encoding requires. */
    private static void clearPadding(byte[] data, int offset, int length, int bitCount) {
        int used = bitCount % 8;
        if (used != 0 && length > BitString.HEADER_BYTES) {
            data[offset + length - 1] &= (byte) (0xFF << (8 - used));
        }
    }
}
