package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Numeric functions with one or two arguments: double arithmetic (+ - * / %), NEGATE, ABS, ROUND,
 * TRUNC, FLOOR, CEIL, SQRT, POWER and PostgreSQL's double precision math (logarithms, exp, trigonometry),
 * on doubles; NEGATE, ABS, ROUND, TRUNC, FLOOR, CEIL, SIGN, DIV, GCD and LCM on LONG-held integers/decimals. Strict: a NULL argument
 * gives NULL. The function is fixed per instance; its switch is a jump per row on a final field,
 * cheap next to the arithmetic (these are not the TPC-H hot paths, which have their own kernels).
 */
final class NumericFunctionEvaluator extends Evaluator {
    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector output;
    private final int inputScale;
    private final int resultScale;
    private final boolean doubleResult;
    private final TypeKind resultKind;
    private int[] scratch = new int[0];

    NumericFunctionEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        super(resultType);
        this.function = function;
        this.arguments = arguments;
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
        this.inputScale = ComparisonEvaluator.scaleOf(arguments[0].type());
        this.resultScale = ComparisonEvaluator.scaleOf(resultType);
        this.doubleResult = output instanceof DoubleVector;
        this.resultKind = resultType.kind();
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector first = arguments[0].evaluate(input, selection, count);
        ColumnVector second = arguments.length > 1 ? arguments[1].evaluate(input, selection, count) : null;
        ColumnVector result = prepare(output, input);
        boolean[] firstNulls = nullsOf(first);
        boolean[] secondNulls = second == null ? null : nullsOf(second);
        if (firstNulls != null || secondNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, firstNulls, secondNulls, result, scratch);
            selection = scratch;
        }
        if (doubleResult) {
            double[] out = ((DoubleVector) result).values();
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                double value = asDouble(first, position);
                double other = second == null ? 0 : asDouble(second, position);
                out[position] = checkFloat(computeDouble(value, other), value, other);
            }
        } else {
            long[] out = ((LongVector) result).values();
            long[] values = ((LongVector) first).values();
            long[] others = second == null ? null : ((LongVector) second).values();
            try {
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = computeLong(values[position], others == null ? 0 : others[position]);
                }
            } catch (ArithmeticException overflow) {
                throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, IntegerRanges.outOfRangeMessage(resultKind));
            }
        }
        return result;
    }

    private double asDouble(ColumnVector vector, int position) {
        if (vector instanceof DoubleVector doubles) {
            return doubles.values()[position];
        }
        long value = ((LongVector) vector).values()[position];
        int scale = ComparisonEvaluator.scaleOf(vector.type());
        return scale == 0 ? value : value / (double) DecimalMath.powerOfTen(scale);
    }

    private double computeDouble(double value, double other) {
        return switch (function) {
            case ADD -> value + other;
            case SUBTRACT -> value - other;
            case MULTIPLY -> value * other;
            case DIVIDE -> {
                if (other == 0) {
                    throw ArithmeticEvaluator.divisionByZero();
                }
                yield value / other;
            }
            case MODULO -> {
                if (other == 0) {
                    throw ArithmeticEvaluator.divisionByZero();
                }
                yield value % other;
            }
            case NEGATE -> -value;
            case ABS -> Math.abs(value);
            // round(double precision) rounds half to even (rint); with a digit count it goes through numeric.
            case ROUND -> arguments.length == 1 ? Math.rint(value) : roundDigits(value, (int) other, java.math.RoundingMode.HALF_UP);
            // PostgreSQL's dtrunc: floor of the magnitude, sign kept (-2.5 gives -2, -0.5 gives -0).
            case TRUNC -> arguments.length == 1 ? (value >= 0 ? Math.floor(value) : -Math.floor(-value))
                    : roundDigits(value, (int) other, java.math.RoundingMode.DOWN);
            case FLOOR -> Math.floor(value);
            case CEIL -> Math.ceil(value);
            case SQRT -> {
                if (value < 0) {
                    throw new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                            "cannot take square root of a negative number");
                }
                yield Math.sqrt(value);
            }
            case POWER -> power(value, other);
            case SIGN -> Math.signum(value);
            case CBRT -> Math.cbrt(value);
            case EXP -> exp(value);
            case LN -> Math.log(logarithmArgument(value));
            case LOG10 -> Math.log10(logarithmArgument(value));
            // log(base, x), PostgreSQL's numeric log: ln(x) / ln(base), so a base of 1 divides by zero.
            case LOG -> {
                double base = Math.log(logarithmArgument(value));
                double logarithm = Math.log(logarithmArgument(other));
                if (base == 0) {
                    throw ArithmeticEvaluator.divisionByZero();
                }
                yield logarithm / base;
            }
            case DEGREES -> Math.toDegrees(value);
            case RADIANS -> Math.toRadians(value);
            case SIN -> Math.sin(finiteAngle(value));
            case COS -> Math.cos(finiteAngle(value));
            case TAN -> Math.tan(finiteAngle(value));
            // cot(0) is Infinity in PostgreSQL, not an overflow (see checkFloat); -0 gives +0 as its dcot.
            case COT -> 1.0 / Math.tan(finiteAngle(value)) + 0.0;
            case ASIN -> Math.asin(unitRange(value));
            case ACOS -> Math.acos(unitRange(value));
            case ATAN -> Math.atan(value);
            case ATAN2 -> Math.atan2(value, other);
            default -> throw new IllegalStateException("not a numeric function: " + function);
        };
    }

    private static double exp(double value) {
        double result = Math.exp(value);
        if (result == 0 && !Double.isInfinite(value)) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
        }
        return result;
    }

    private static double logarithmArgument(double value) {
        if (value == 0) {
            throw new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of zero");
        }
        if (value < 0) {
            throw new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM, "cannot take logarithm of a negative number");
        }
        return value;
    }

    private static double finiteAngle(double value) {
        if (Double.isInfinite(value)) {
            throw inputOutOfRange();
        }
        return value;
    }

    private static double unitRange(double value) {
        if (value < -1 || value > 1) {
            throw inputOutOfRange();
        }
        return value;
    }

    private static ParallaxException inputOutOfRange() {
        return new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "input is out of range");
    }

    private static double roundDigits(double value, int digits, java.math.RoundingMode mode) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return new java.math.BigDecimal(Double.toString(value)).setScale(digits, mode).doubleValue();
    }

    private static double power(double base, double exponent) {
        if (base == 0 && exponent < 0) {
            throw new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION, "zero raised to a negative power is undefined");
        }
        if (base < 0 && Math.floor(exponent) != exponent) {
            throw new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                    "a negative number raised to a non-integer power yields a complex result");
        }
        return Math.pow(base, exponent);
    }

    private double checkFloat(double result, double value, double other) {
        if (Double.isInfinite(result) && !Double.isInfinite(value) && !Double.isInfinite(other) && function != Function.COT) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
        }
        if (resultKind == TypeKind.REAL && Math.abs(result) > Float.MAX_VALUE && !Double.isInfinite(result)) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
        }
        return resultKind == TypeKind.REAL ? (float) result : result;
    }

    /**
     * LONG-held integer or decimal: NEGATE, ABS, ROUND/TRUNC/FLOOR/CEIL/SIGN to the result scale; DIV
     * of two values of the argument scale; GCD and LCM of integers.
     */
    private long computeLong(long value, long other) {
        long result = switch (function) {
            case NEGATE -> Math.negateExact(value);
            case ABS -> Math.absExact(value);
            case ROUND -> toDigits(value, arguments.length == 1 ? 0 : (int) other, true);
            case TRUNC -> toDigits(value, arguments.length == 1 ? 0 : (int) other, false);
            case SIGN -> scaleTo(Long.signum(value), 0);
            case DIV -> {
                if (other == 0) {
                    throw ArithmeticEvaluator.divisionByZero();
                }
                yield scaleTo(other == -1 ? Math.negateExact(value) : value / other, 0);
            }
            case GCD -> greatestCommonDivisor(value, other);
            case LCM -> leastCommonMultiple(value, other);
            case FLOOR -> scaleTo(Math.floorDiv(value, DecimalMath.powerOfTen(inputScale)), 0);
            case CEIL -> scaleTo(-Math.floorDiv(-value, DecimalMath.powerOfTen(inputScale)), 0);
            default -> throw new IllegalStateException("not a LONG numeric function: " + function);
        };
        if (result < IntegerRanges.minimum(resultKind) || result > IntegerRanges.maximum(resultKind)) {
            throw new ArithmeticException();
        }
        return result;
    }

    /**
     * Rounds (half away from zero) or truncates (toward zero) a scaled value to {@code digits}
     * fraction digits (negative: tens, hundreds...), at the result scale.
     */
    private long toDigits(long value, int digits, boolean round) {
        int dropped = inputScale - digits;
        long kept = value;
        if (dropped > 0) {
            if (dropped > 18) {
                return 0;
            }
            long factor = DecimalMath.powerOfTen(dropped);
            kept = Math.multiplyExact(round ? DecimalMath.divideRounded(value, factor) : value / factor, factor);
        }
        return DecimalMath.rescale(kept, inputScale, resultScale);
    }

    /** PostgreSQL's int4gcd/int8gcd: the absolute value, so only the type's minimum itself overflows. */
    private long greatestCommonDivisor(long value, long other) {
        long first = value;
        long second = other;
        while (second != 0) {
            long remainder = first % second;
            first = second;
            second = remainder;
        }
        return Math.absExact(first);
    }

    private long leastCommonMultiple(long value, long other) {
        if (value == 0 || other == 0) {
            return 0;
        }
        long divisor = greatestCommonDivisor(value, other);
        return Math.absExact(Math.multiplyExact(value / divisor, other));
    }

    private long scaleTo(long integral, int scale) {
        return DecimalMath.scaleUp(integral, resultScale - scale);
    }
}
