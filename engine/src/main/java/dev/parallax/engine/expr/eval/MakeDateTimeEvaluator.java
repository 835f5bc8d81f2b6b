package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * PostgreSQL's {@code make_date(year, month, day)} (integers, a DATE), {@code make_timestamp(year,
 * month, day, hour, minute, seconds)} (integers and a double, a TIMESTAMP) and {@code
 * make_interval(years, months, weeks, days, hours, mins, secs)} (integers and a double, an interval
 * of the kind the planner chose): strict, NULL in, NULL out; the checks and their 22008 messages
 * are {@link DateTimes#makeDate}, {@link DateTimes#makeTimestamp} and {@link DateTimes#makeInterval}.
 */
final class MakeDateTimeEvaluator extends Evaluator {
    private final Evaluator[] arguments;
    private final Function function;
    private final LongVector output;
    private final ColumnVector[] argumentVectors;
    private final NonNullPositions nonNull = new NonNullPositions();

    /** Three integer arguments for a date; five integers and a double for a timestamp, six and a double for an interval. */
    MakeDateTimeEvaluator(Evaluator[] arguments, Function function, DataType type) {
        super(type);
        this.arguments = arguments;
        this.function = function;
        this.output = new LongVector(type(), Evaluator.INITIAL_CAPACITY);
        this.argumentVectors = new ColumnVector[arguments.length];
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        if (count == 0) {
            return result;
        }
        long[] years = ((LongVector) argumentVectors[0]).values();
        long[] months = ((LongVector) argumentVectors[1]).values();
        long[] days = ((LongVector) argumentVectors[2]).values();
        long[] out = result.values();
        if (function == Function.MAKE_DATE) {
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                out[position] = DateTimes.makeDate(years[position], months[position], days[position]);
            }
            return result;
        }
        if (function == Function.MAKE_INTERVAL) {
            makeIntervals(selection, count, out);
            return result;
        }
        long[] hours = ((LongVector) argumentVectors[3]).values();
        long[] minutes = ((LongVector) argumentVectors[4]).values();
        double[] seconds = ((DoubleVector) argumentVectors[5]).values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            out[position] = DateTimes.makeTimestamp(years[position], months[position], days[position], hours[position],
                    minutes[position], seconds[position]);
        }
        return result;
    }

    private void makeIntervals(int[] selection, int count, long[] out) {
        long[] years = ((LongVector) argumentVectors[0]).values();
        long[] months = ((LongVector) argumentVectors[1]).values();
        long[] weeks = ((LongVector) argumentVectors[2]).values();
        long[] days = ((LongVector) argumentVectors[3]).values();
        long[] hours = ((LongVector) argumentVectors[4]).values();
        long[] minutes = ((LongVector) argumentVectors[5]).values();
        double[] seconds = ((DoubleVector) argumentVectors[6]).values();
        boolean inMonths = type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            out[position] = inMonths ? DateTimes.makeMonths(years[position], months[position])
                    : DateTimes.makeDayTime(weeks[position], days[position], hours[position], minutes[position], seconds[position]);
        }
    }
}
