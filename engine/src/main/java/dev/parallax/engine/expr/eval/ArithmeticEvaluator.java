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
        this.output = new LongVector(resultType, Batch.DEFAULT_CAPACITY);
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
