package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code interval * number}, {@code number * interval} and {@code interval / number}, as PostgreSQL's
 * interval_mul / interval_div: a day-time interval (microseconds) is scaled and rounded to the nearest
 * microsecond ({@code interval '1 day' / 7} is 03:25:42.857143); a whole factor multiplies exactly. A
 * year-month interval (months) scales to whole months only: PostgreSQL carries a fraction of a month
 * into days, which a Parallax interval of months cannot hold (0A000). The factor arrives as a double.
 */
final class IntervalScaleEvaluator extends Evaluator {
    /** Doubles hold every integer up to this exactly: a whole factor below it multiplies as a long. */
    private static final double EXACT_INTEGERS = 9.007199254740992E15;

    private final Evaluator interval;
    private final Evaluator factor;
    private final boolean divide;
    private final boolean months;
    private final LongVector output;
    private int[] scratch = new int[0];

    IntervalScaleEvaluator(Evaluator interval, Evaluator factor, boolean divide, DataType resultType) {
        super(resultType);
        this.interval = interval;
        this.factor = factor;
        this.divide = divide;
        this.months = interval.type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        this.output = (LongVector) ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    LongVector evaluate(Batch input, int[] selection, int count) {
        LongVector values = (LongVector) interval.evaluate(input, selection, count);
        DoubleVector factors = (DoubleVector) factor.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] factorNulls = nullsOf(factors);
        if (valueNulls != null || factorNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, factorNulls, result, scratch);
            selection = scratch;
        }
        long[] in = values.values();
        double[] by = factors.values();
        long[] out = result.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            out[position] = scale(in[position], by[position], divide, months);
        }
        return result;
    }

    /**
     * {@code value} (months when {@code months}, else microseconds) multiplied or, when {@code divide},
     * divided by {@code by}, as PostgreSQL's interval_mul / interval_div (also percentile_cont's
     * interpolation between two intervals).
     */
    static long scale(long value, double by, boolean divide, boolean months) {
        if (divide && by == 0) {
            throw new ParallaxException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        if (!divide && by == Math.rint(by) && Math.abs(by) < EXACT_INTEGERS) {
            try {
                return Math.multiplyExact(value, (long) by);
            } catch (ArithmeticException overflow) {
                throw outOfRange();
            }
        }
        double scaled = divide ? value / by : value * by;
        if (Double.isNaN(scaled) || Math.abs(scaled) >= 9.2e18) {
            throw outOfRange();
        }
        double rounded = Math.rint(scaled);
        if (months && rounded != scaled) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "an interval of months scaled to a fraction of a month is not supported yet", null,
                    "PostgreSQL carries the fraction into days; Parallax keeps months and days in separate interval types.", 0, null);
        }
        return (long) rounded;
    }

    private static ParallaxException outOfRange() {
        return new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
    }
}
