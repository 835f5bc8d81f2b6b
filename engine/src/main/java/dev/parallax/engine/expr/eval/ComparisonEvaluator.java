package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Comparison of two values of the same vector kind, producing BOOLEAN. The operator is encoded as
 * a three-bit mask (bit 0: true when less, bit 1: when equal, bit 2: when greater) so one loop
 * serves all six operators without a per-row switch. DECIMALs of different scales are aligned by
 * multiplying one side; CHAR compares without trailing blanks; bit strings compare bits, then length.
 */
final class ComparisonEvaluator extends Evaluator {
    private final Evaluator left;
    private final Evaluator right;
    private final int mask;
    private final boolean distinctness;
    private final int leftScaleUp;
    private final int rightScaleUp;
    private final boolean padded;
    private final boolean bits;
    /** The operands' array type when they are arrays (PostgreSQL's element-wise array_cmp), else null. */
    private final DataType arrayType;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);

    ComparisonEvaluator(Function function, Evaluator left, Evaluator right) {
        super(DataType.BOOLEAN);
        this.left = left;
        this.right = right;
        this.mask = maskOf(function);
        this.distinctness = function == Function.IS_DISTINCT_FROM || function == Function.IS_NOT_DISTINCT_FROM;
        int leftScale = scaleOf(left.type());
        int rightScale = scaleOf(right.type());
        this.leftScaleUp = Math.max(0, rightScale - leftScale);
        this.rightScaleUp = Math.max(0, leftScale - rightScale);
        this.padded = left.type().kind() == TypeKind.CHAR || right.type().kind() == TypeKind.CHAR;
        this.bits = left.type().kind().isBitString();
        this.arrayType = left.type().kind() == TypeKind.ARRAY ? left.type() : null;
    }

    /** Bit 0 set: true when left < right; bit 1: when equal; bit 2: when greater. */
    static int maskOf(Function function) {
        return switch (function) {
            case EQUAL, IS_NOT_DISTINCT_FROM -> 0b010;
            case NOT_EQUAL, IS_DISTINCT_FROM -> 0b101;
            case LESS_THAN -> 0b001;
            case LESS_THAN_OR_EQUAL -> 0b011;
            case GREATER_THAN -> 0b100;
            case GREATER_THAN_OR_EQUAL -> 0b110;
            default -> throw new IllegalArgumentException("not a comparison: " + function);
        };
    }

    static int scaleOf(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector leftVector = left.evaluate(input, selection, count);
        ColumnVector rightVector = right.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        long[] out = result.values();
        boolean[] leftNulls = nullsOf(leftVector);
        boolean[] rightNulls = nullsOf(rightVector);
        boolean anyNulls = leftNulls != null || rightNulls != null;
        switch (leftVector) {
            case LongVector longs -> {
                long[] leftValues = longs.values();
                long[] rightValues = ((LongVector) rightVector).values();
                if (!anyNulls && leftScaleUp == 0 && rightScaleUp == 0) {
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? index : selection[index];
                        out[position] = (mask >>> (Long.compare(leftValues[position], rightValues[position]) + 1)) & 1;
                    }
                } else {
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? index : selection[index];
                        if (anyNulls && nullOutcome(result, position, leftNulls, rightNulls)) {
                            continue;
                        }
                        long leftValue = DecimalMath.scaleUp(leftValues[position], leftScaleUp);
                        long rightValue = DecimalMath.scaleUp(rightValues[position], rightScaleUp);
                        out[position] = (mask >>> (Long.compare(leftValue, rightValue) + 1)) & 1;
                    }
                }
            }
            case DoubleVector doubles -> {
                double[] leftValues = doubles.values();
                double[] rightValues = ((DoubleVector) rightVector).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    if (anyNulls && nullOutcome(result, position, leftNulls, rightNulls)) {
                        continue;
                    }
                    // Double.compare orders NaN above everything and equal to itself, as PostgreSQL does.
                    out[position] = (mask >>> (Integer.signum(Double.compare(leftValues[position], rightValues[position])) + 1)) & 1;
                }
            }
            case BytesVector bytes -> {
                BytesVector rightBytes = (BytesVector) rightVector;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    if (anyNulls && nullOutcome(result, position, leftNulls, rightNulls)) {
                        continue;
                    }
                    int comparison = arrayType != null
                            ? dev.parallax.engine.sort.ValueOrder.compareArrays(arrayType, bytes.data(), bytes.offset(position),
                                    rightBytes.data(), rightBytes.offset(position))
                            : bits
                            ? compareBits(bytes.data(), bytes.offset(position), bytes.length(position),
                                    rightBytes.data(), rightBytes.offset(position), rightBytes.length(position))
                            : compareText(bytes.data(), bytes.offset(position), bytes.length(position),
                                    rightBytes.data(), rightBytes.offset(position), rightBytes.length(position), padded);
                    out[position] = (mask >>> (Integer.signum(comparison) + 1)) & 1;
                }
            }
        }
        return result;
    }

    /** Handles a row where an operand is NULL; returns true when the row is done. */
    private boolean nullOutcome(LongVector result, int position, boolean[] leftNulls, boolean[] rightNulls) {
        boolean leftNull = isNull(leftNulls, position);
        boolean rightNull = isNull(rightNulls, position);
        if (!leftNull && !rightNull) {
            return false;
        }
        if (distinctness) {
            // Both NULL: not distinct; one NULL: distinct.
            boolean distinct = leftNull != rightNull;
            result.values()[position] = distinct == (mask == 0b101) ? 1 : 0;
        } else {
            result.setNull(position);
        }
        return true;
    }

    /** C-collation comparison of UTF-8 text (unsigned bytes); {@code padded} ignores trailing blanks (bpchar). */
    static int compareText(byte[] leftData, int leftOffset, int leftLength, byte[] rightData, int rightOffset, int rightLength,
                           boolean padded) {
        if (padded) {
            while (leftLength > 0 && leftData[leftOffset + leftLength - 1] == ' ') {
                leftLength--;
            }
            while (rightLength > 0 && rightData[rightOffset + rightLength - 1] == ' ') {
                rightLength--;
            }
        }
        int mismatch = java.util.Arrays.mismatch(leftData, leftOffset, leftOffset + leftLength,
                rightData, rightOffset, rightOffset + rightLength);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch >= leftLength || mismatch >= rightLength) {
            return Integer.compare(leftLength, rightLength);
        }
        return Integer.compare(leftData[leftOffset + mismatch] & 0xFF, rightData[rightOffset + mismatch] & 0xFF);
    }

    /** PostgreSQL's bitcmp: the common bytes first, then the shorter string is smaller. */
    static int compareBits(byte[] leftData, int leftOffset, int leftLength, byte[] rightData, int rightOffset, int rightLength) {
        int header = BitString.HEADER_BYTES;
        int common = Math.min(leftLength, rightLength) - header;
        int mismatch = java.util.Arrays.mismatch(leftData, leftOffset + header, leftOffset + header + common,
                rightData, rightOffset + header, rightOffset + header + common);
        if (mismatch >= 0) {
            return Integer.compare(leftData[leftOffset + header + mismatch] & 0xFF, rightData[rightOffset + header + mismatch] & 0xFF);
        }
        return Integer.compare(BitString.bitCount(leftData, leftOffset), BitString.bitCount(rightData, rightOffset));
    }
}
