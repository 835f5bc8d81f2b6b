package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * PostgreSQL's {@code width_bucket(operand, low, high, count)}: which of count equal-width buckets
 * between low and high holds the operand, 0 below the range and count + 1 above it (a range with
 * high below low counts down). Operand and bounds arrive as double precision, count as an integer;
 * a NULL argument gives NULL. Errors (2201G) and arithmetic (count times the offset, then divided
 * by the width) as PostgreSQL 15's width_bucket_float8.
 */
final class WidthBucketEvaluator extends Evaluator {
    private final Evaluator operand;
    private final Evaluator low;
    private final Evaluator high;
    private final Evaluator count;
    private final LongVector output = new LongVector(DataType.INTEGER, Evaluator.INITIAL_CAPACITY);

    WidthBucketEvaluator(Evaluator operand, Evaluator low, Evaluator high, Evaluator count) {
        super(DataType.INTEGER);
        this.operand = operand;
        this.low = low;
        this.high = high;
        this.count = count;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int rows) {
        DoubleVector operands = (DoubleVector) operand.evaluate(input, selection, rows);
        DoubleVector lows = (DoubleVector) low.evaluate(input, selection, rows);
        DoubleVector highs = (DoubleVector) high.evaluate(input, selection, rows);
        LongVector counts = (LongVector) count.evaluate(input, selection, rows);
        LongVector result = prepare(output, input);
        boolean[] operandNulls = nullsOf(operands);
        boolean[] lowNulls = nullsOf(lows);
        boolean[] highNulls = nullsOf(highs);
        boolean[] countNulls = nullsOf(counts);
        long[] out = result.values();
        for (int index = 0; index < rows; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(operandNulls, position) || isNull(lowNulls, position) || isNull(highNulls, position)
                    || isNull(countNulls, position)) {
                result.setNull(position);
                continue;
            }
            out[position] = bucket(operands.values()[position], lows.values()[position], highs.values()[position],
                    counts.values()[position]);
        }
        return result;
    }

    private static long bucket(double operand, double low, double high, long count) {
        if (count <= 0) {
            throw invalid("count must be greater than zero");
        }
        if (Double.isNaN(operand) || Double.isNaN(low) || Double.isNaN(high)) {
            throw invalid("operand, lower bound, and upper bound cannot be NaN");
        }
        if (Double.isInfinite(low) || Double.isInfinite(high)) {
            throw invalid("lower and upper bounds must be finite");
        }
        if (low == high) {
            throw invalid("lower bound cannot equal upper bound");
        }
        long result;
        if (low < high) {
            if (operand < low) {
                result = 0;
            } else if (operand >= high) {
                result = count + 1;
            } else {
                result = (long) (count * (operand - low) / (high - low)) + 1;
            }
        } else {
            if (operand > low) {
                result = 0;
            } else if (operand <= high) {
                result = count + 1;
            } else {
                result = (long) (count * (low - operand) / (low - high)) + 1;
            }
        }
        if (result > Integer.MAX_VALUE) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        return result;
    }

    private static ParallaxException invalid(String message) {
        return new ParallaxException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, message);
    }
}
