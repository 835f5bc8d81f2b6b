package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * +, -, *, /, % on LONG-held numbers: integers (result range-checked against the declared type,
 * "integer out of range") and scaled-long DECIMALs (operands aligned to the result scale for + and
 * -, products rescaled by a fixed factor, quotients rounded half away from zero, long overflow
 * "numeric field overflow"). Operand scales are fixed at compile time, so the hot loops are plain
 * long arithmetic; the operator switch runs once per batch.
 */
final class ArithmeticEvaluator extends Evaluator {
    private final Function operator;
    private final Evaluator left;
    private final Evaluator right;
    private final boolean decimal;
    private final int leftScale;
    private final int rightScale;
    private final int resultScale;
    private final int leftScaleUp;
    private final int rightScaleUp;
    private final int alignedScale;
    private final long minimum;
    private final long maximum;
    private final String rangeMessage;
    private final LongVector output;
    private int[] scratch = new int[0];

    ArithmeticEvaluator(Function operator, Evaluator left, Evaluator right, DataType resultType) {
        super(resultType);
        this.operator = operator;
        this.left = left;
        this.right = right;
        this.decimal = resultType.kind() == TypeKind.DECIMAL;
        this.leftScale = ComparisonEvaluator.scaleOf(left.type());
        this.rightScale = ComparisonEvaluator.scaleOf(right.type());
        this.resultScale = decimal ? resultType.scale() : 0;
        this.alignedScale = Math.max(leftScale, rightScale);
        this.leftScaleUp = alignedScale - leftScale;
        this.rightScaleUp = alignedScale - rightScale;
        this.minimum = IntegerRanges.minimum(resultType.kind());
        this.maximum = IntegerRanges.maximum(resultType.kind());
        this.rangeMessage = IntegerRanges.outOfRangeMessage(resultType.kind());
        this.output = new LongVector(resultType, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector leftVector = (LongVector) left.evaluate(input, selection, count);
        LongVector rightVector = (LongVector) right.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        boolean[] leftNulls = nullsOf(leftVector);
        boolean[] rightNulls = nullsOf(rightVector);
        if (leftNulls != null || rightNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, leftNulls, rightNulls, result, scratch);
            selection = scratch;
        }
        long[] leftValues = leftVector.values();
        long[] rightValues = rightVector.values();
        long[] out = result.values();
        try {
            if (decimal) {
                if (selection == null || count >= input.rowCount() - (input.rowCount() >> 2)) {
                    if (computeDecimalDense(leftValues, rightValues, out, input.rowCount())) {
                        return result;
                    }
                }
                computeDecimal(leftValues, rightValues, out, selection, count);
            } else {
                computeInteger(leftValues, rightValues, out, selection, count);
            }
        } catch (ArithmeticException overflow) {
            throw decimal ? DecimalMath.overflow() : new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, rangeMessage);
        }
        return result;
    }

    private void computeInteger(long[] leftValues, long[] rightValues, long[] out, int[] selection, int count) {
        switch (operator) {
            case ADD -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = checkRange(Math.addExact(leftValues[position], rightValues[position]));
                }
            }
            case SUBTRACT -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = checkRange(Math.subtractExact(leftValues[position], rightValues[position]));
                }
            }
            case MULTIPLY -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = checkRange(Math.multiplyExact(leftValues[position], rightValues[position]));
                }
            }
            case DIVIDE -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long divisor = rightValues[position];
                    if (divisor == 0) {
                        throw divisionByZero();
                    }
                    // Long.MIN_VALUE / -1 overflows: PostgreSQL reports it as out of range.
                    out[position] = checkRange(divisor == -1 ? Math.negateExact(leftValues[position]) : leftValues[position] / divisor);
                }
            }
            case MODULO -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long divisor = rightValues[position];
                    if (divisor == 0) {
                        throw divisionByZero();
                    }
                    out[position] = divisor == -1 ? 0 : leftValues[position] % divisor;
                }
            }
            default -> throw new IllegalStateException("not arithmetic: " + operator);
        }
    }

    private long checkRange(long value) {
        if (value < minimum || value > maximum) {
            throw new ArithmeticException();
        }
        return value;
    }

    /**
     * The common decimal cases (operands already at the result scale for + and -, products needing
     * no rescale) over every position {@code 0..rowCount-1}, live or not: a straight loop with no
     * selection indirection and no branch per row. Overflow is OR-ed into one flag and tested once;
     * as dead positions may hold stale values, a raised flag only sends the batch to the exact
     * per-row path, which throws if a live row overflows. Returns false when the batch must take
     * that path (also for the other operators and scalings).
     * <p>TPC-H Q1 SF1 serial, 40 runs under JFR (three subtract/add, three multiply per row): the
     * decimal kernels fell from 389 samples to 111; query CPU time ~250 -> ~200 ms.
     */
    private boolean computeDecimalDense(long[] leftValues, long[] rightValues, long[] out, int rowCount) {
        switch (operator) {
            case ADD, SUBTRACT -> {
                if (leftScaleUp != 0 || rightScaleUp != 0 || alignedScale != resultScale) {
                    return false;
                }
                long overflow = 0;
                if (operator == Function.SUBTRACT) {
                    for (int position = 0; position < rowCount; position++) {
                        long leftValue = leftValues[position];
                        long rightValue = rightValues[position];
                        long value = leftValue - rightValue;
                        out[position] = value;
                        // Hacker's Delight 2-13: a - b overflows iff the operands' signs differ and the result's sign is b's.
                        overflow |= (leftValue ^ rightValue) & (leftValue ^ value);
                    }
                } else {
                    for (int position = 0; position < rowCount; position++) {
                        long leftValue = leftValues[position];
                        long rightValue = rightValues[position];
                        long value = leftValue + rightValue;
                        out[position] = value;
                        // a + b overflows iff both operands' signs differ from the result's.
                        overflow |= (leftValue ^ value) & (rightValue ^ value);
                    }
                }
                return overflow >= 0;
            }
            case MULTIPLY -> {
                if (leftScale + rightScale != resultScale) {
                    return false;
                }
                long overflow = 0;
                for (int position = 0; position < rowCount; position++) {
                    long leftValue = leftValues[position];
                    long rightValue = rightValues[position];
                    long value = leftValue * rightValue;
                    out[position] = value;
                    // The 128-bit product fits in a long iff its high word is the sign extension of the low word.
                    overflow |= Math.multiplyHigh(leftValue, rightValue) ^ (value >> 63);
                }
                return overflow == 0;
            }
            default -> {
                return false;
            }
        }
    }

    private void computeDecimal(long[] leftValues, long[] rightValues, long[] out, int[] selection, int count) {
        switch (operator) {
            case ADD, SUBTRACT -> {
                long leftFactor = DecimalMath.powerOfTen(leftScaleUp);
                long rightFactor = DecimalMath.powerOfTen(rightScaleUp);
                boolean subtract = operator == Function.SUBTRACT;
                boolean rescale = alignedScale != resultScale;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long leftValue = Math.multiplyExact(leftValues[position], leftFactor);
                    long rightValue = Math.multiplyExact(rightValues[position], rightFactor);
                    long value = subtract ? Math.subtractExact(leftValue, rightValue) : Math.addExact(leftValue, rightValue);
                    out[position] = rescale ? DecimalMath.rescale(value, alignedScale, resultScale) : value;
                }
            }
            case MULTIPLY -> {
                int productScale = leftScale + rightScale;
                if (productScale == resultScale) {
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? index : selection[index];
                        out[position] = Math.multiplyExact(leftValues[position], rightValues[position]);
                    }
                } else {
                    for (int index = 0; index < count; index++) {
                        int position = selection == null ? index : selection[index];
                        out[position] = DecimalMath.multiply(leftValues[position], rightValues[position], productScale, resultScale);
                    }
                }
            }
            case DIVIDE -> {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long divisor = rightValues[position];
                    if (divisor == 0) {
                        throw divisionByZero();
                    }
                    out[position] = DecimalMath.divide(leftValues[position], leftScale, divisor, rightScale, resultScale);
                }
            }
            case MODULO -> {
                long leftFactor = DecimalMath.powerOfTen(leftScaleUp);
                long rightFactor = DecimalMath.powerOfTen(rightScaleUp);
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long divisor = Math.multiplyExact(rightValues[position], rightFactor);
                    if (divisor == 0) {
                        throw divisionByZero();
                    }
                    long remainder = Math.multiplyExact(leftValues[position], leftFactor) % divisor;
                    out[position] = DecimalMath.rescale(remainder, alignedScale, resultScale);
                }
            }
            default -> throw new IllegalStateException("not arithmetic: " + operator);
        }
    }

    static ParallaxException divisionByZero() {
        return new ParallaxException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }
}
