package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.sort.ValueOrder;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigDecimal;

/**
 * The final step of the ordered-set aggregates over the values a group collected (the planner
 * writes {@code mode() WITHIN GROUP (ORDER BY x)} as {@code MODE(pg_collect(x), descending)}, and
 * percentile_cont / percentile_disc as {@code PERCENTILE_*(pg_collect(x), fraction, descending)}):
 * the array's non-NULL values are sorted ({@link SortedElements}) and read as PostgreSQL's
 * orderedsetaggs.c reads its sorted input. One row is one group, so the per-row work here is a
 * sort of that group's values; nothing is boxed.
 * <ul>
 *   <li>MODE: the longest run of equal values, the first such run on a tie; NULL for no value.</li>
 *   <li>PERCENTILE_CONT(fraction): the value at position {@code fraction * (n - 1)}, interpolated
 *       linearly between its two neighbours (double precision, or an interval).</li>
 *   <li>PERCENTILE_DISC(fraction): the first value whose position reaches {@code fraction * n}.</li>
 * </ul>
 * The fraction is a double precision, or an array of them giving an array of results (a NULL
 * fraction a NULL element, the fractions' lower bound kept). A fraction outside [0, 1] is 22003 —
 * a single one even over no value, an array's only when there are values, as in PostgreSQL.
 */
final class OrderedSetEvaluator extends RowByRowEvaluator {
    private final Function function;
    private final DataType element;
    /** PERCENTILE_CONT of intervals interpolates months or microseconds; of numbers, doubles. */
    private final boolean intervals;
    private final boolean monthIntervals;
    private final ArrayValue.Builder builder;
    private final SortedElements sorted = new SortedElements();

    OrderedSetEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        super(arguments, resultType);
        this.function = function;
        this.element = arguments[0].type().element();
        this.intervals = element.kind() == TypeKind.INTERVAL_DAY_TIME || element.kind() == TypeKind.INTERVAL_YEAR_MONTH;
        this.monthIntervals = element.kind() == TypeKind.INTERVAL_YEAR_MONTH;
        this.builder = resultType.kind() == TypeKind.ARRAY ? new ArrayValue.Builder(resultType) : null;
    }

    @Override
    boolean evaluateRow(ColumnVector result, int position) {
        boolean descending = ((LongVector) vectors[vectors.length - 1]).values()[position] != 0;
        BytesVector arrays = (BytesVector) vectors[0];
        boolean noValues = arrays.isNull(position);
        byte[] data = arrays.data();
        int offset = noValues ? 0 : arrays.offset(position);
        if (function == Function.MODE) {
            int count = noValues ? 0 : sorted.sort(element, data, offset, descending);
            if (count == 0) {
                return false;
            }
            ArrayFunctionEvaluator.storeElement(result, position, data, offset, mostFrequent(data, offset, count));
            return true;
        }
        ColumnVector fractions = vectors[1];
        if (fractions.isNull(position)) {
            return false;
        }
        if (fractions instanceof DoubleVector single) {
            double fraction = single.values()[position];
            checkFraction(fraction);
            int count = noValues ? 0 : sorted.sort(element, data, offset, descending);
            if (count == 0) {
                return false;
            }
            if (function == Function.PERCENTILE_DISC) {
                ArrayFunctionEvaluator.storeElement(result, position, data, offset, discrete(count, fraction));
            } else if (intervals) {
                ((LongVector) result).values()[position] = continuousInterval(data, offset, count, fraction);
            } else {
                ((DoubleVector) result).values()[position] = continuous(data, offset, count, fraction);
            }
            return true;
        }
        int count = noValues ? 0 : sorted.sort(element, data, offset, descending);
        if (count == 0) {
            return false;
        }
        BytesVector fractionArrays = (BytesVector) fractions;
        byte[] fractionData = fractionArrays.data();
        int fractionOffset = fractionArrays.offset(position);
        int fractionCount = ArrayValue.count(fractionData, fractionOffset);
        for (int index = 0; index < fractionCount; index++) {
            if (ArrayValue.isNull(fractionData, fractionOffset, index)) {
                builder.addNull();
                continue;
            }
            double fraction = ArrayValue.doubleAt(fractionData, fractionOffset, index);
            checkFraction(fraction);
            if (function == Function.PERCENTILE_DISC) {
                builder.addFrom(data, offset, discrete(count, fraction));
            } else if (intervals) {
                builder.addLong(continuousInterval(data, offset, count, fraction));
            } else {
                builder.addDouble(continuous(data, offset, count, fraction));
            }
        }
        builder.buildInto((BytesVector) result, position, ArrayValue.lowerBound(fractionData, fractionOffset));
        return true;
    }

    /**
     * The array index of a most frequent value among the {@code count} sorted ones, the first of
     * equally frequent values in the sort order, as PostgreSQL's mode_final keeps a mode until a
     * strictly more frequent value follows.
     */
    private int mostFrequent(byte[] data, int offset, int count) {
        int mode = -1;
        int modeLength = 0;
        int runStart = 0;
        for (int rank = 1; rank <= count; rank++) {
            if (rank == count || ValueOrder.compareElements(element, data, offset, sorted.index(runStart),
                    data, offset, sorted.index(rank)) != 0) {
                if (rank - runStart > modeLength) {
                    mode = sorted.index(runStart);
                    modeLength = rank - runStart;
                }
                runStart = rank;
            }
        }
        return mode;
    }

    /** percentile_disc_final: the smallest k with k / count >= fraction, but at least 1; its array index. */
    private int discrete(int count, double fraction) {
        long row = Math.max(1, (long) Math.ceil(fraction * count));
        return sorted.index((int) row - 1);
    }

    /** percentile_cont_final_common with float8_lerp: {@code low + (high - low) * proportion}. */
    private double continuous(byte[] data, int offset, int count, double fraction) {
        double position = fraction * (count - 1);
        long first = (long) Math.floor(position);
        long second = (long) Math.ceil(position);
        double low = doubleAt(data, offset, sorted.index((int) first));
        if (second == first) {
            return low;
        }
        double high = doubleAt(data, offset, sorted.index((int) second));
        return low + (position - first) * (high - low);
    }

    /** As {@link #continuous} with interval_lerp: {@code low + (high - low) * proportion}, rounded as interval_mul rounds. */
    private long continuousInterval(byte[] data, int offset, int count, double fraction) {
        double position = fraction * (count - 1);
        long first = (long) Math.floor(position);
        long second = (long) Math.ceil(position);
        long low = ArrayValue.longAt(data, offset, sorted.index((int) first));
        if (second == first) {
            return low;
        }
        long high = ArrayValue.longAt(data, offset, sorted.index((int) second));
        long difference;
        long sum;
        try {
            difference = Math.subtractExact(high, low);
            sum = Math.addExact(low, IntervalScaleEvaluator.scale(difference, position - first, false, monthIntervals));
        } catch (ArithmeticException overflow) {
            throw new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
        }
        return sum;
    }

    /** A number element as double precision, as PostgreSQL casts the sort input of percentile_cont to float8. */
    private double doubleAt(byte[] data, int offset, int index) {
        return switch (element.kind()) {
            case REAL, DOUBLE -> ArrayValue.doubleAt(data, offset, index);
            // Correctly rounded, as numeric_float8 (a long beyond 2^53 over a power of ten would round twice).
            case DECIMAL -> BigDecimal.valueOf(ArrayValue.longAt(data, offset, index), element.scale()).doubleValue();
            default -> ArrayValue.longAt(data, offset, index);
        };
    }

    private static void checkFraction(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "percentile value %s is not between 0 and 1",
                    DateTimes.formatG(fraction));
        }
    }
}
