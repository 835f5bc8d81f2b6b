package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * PostgreSQL's {@code make_date(year, month, day)} (integers, a DATE) and {@code make_timestamp(year,
 * month, day, hour, minute, seconds)} (integers and a double, a TIMESTAMP): strict, NULL in, NULL
 * out; the checks and their 22008 messages are {@link DateTimes#makeDate} and
 * {@link DateTimes#makeTimestamp}.
 */
final class MakeDateTimeEvaluator extends Evaluator {
    private final Evaluator[] arguments;
    private final boolean timestamp;
    private final LongVector output;
    private final ColumnVector[] argumentVectors;
    private final NonNullPositions nonNull = new NonNullPositions();

    /** Three integer arguments for a date; five integers and a double for a timestamp. */
    MakeDateTimeEvaluator(Evaluator[] arguments, boolean timestamp) {
        super(timestamp ? DataType.TIMESTAMP : DataType.DATE);
        this.arguments = arguments;
        this.timestamp = timestamp;
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
        if (!timestamp) {
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                out[position] = DateTimes.makeDate(years[position], months[position], days[position]);
            }
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
}
