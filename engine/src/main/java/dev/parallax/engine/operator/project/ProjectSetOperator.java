package dev.parallax.engine.operator.project;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Runs the set-returning functions of a select list over each input row (see {@code ProjectSetNode}).
 * The arguments are evaluated once per input batch; the values are then written a run at a time
 * (one input row's values that fit in the output batch), function by function, so the loops that
 * write them branch per run, not per value. An input row can give more rows than an output batch
 * holds: the operator then remembers the row and the element it stopped at and resumes there.
 */
public final class ProjectSetOperator implements Operator {
    private static final int CAPACITY = Batch.DEFAULT_CAPACITY;

    private final ExecutionContext context;
    private final Operator input;
    /** Per function, {@code start, stop, step} for a series or {@code array} for an unnest. */
    private final VectorExpression[][] arguments;
    private final boolean[] series;
    /**
     * Per function, for a series of timestamps stepping by months (the step a count of months) the zone the
     * months are added in (UTC for timestamps, the session's for timestamps with time zone); null otherwise.
     */
    private final SessionTimeZone[] monthZones;
    private final Batch output;
    private final int inputColumns;
    private final ColumnVector[][] argumentValues;
    /**
     * Per function, for the current input row: its number of values, and a series' start and step or
     * an array's bytes; a series by months keeps in {@code starts} the value at {@code elementIndex}.
     */
    private final long[] lengths;
    private final long[] starts;
    private final long[] steps;
    private final byte[][] arrays;
    private final int[] arrayOffsets;
    private Batch current;
    private int rowIndex;
    private boolean rowStarted;
    private long rowLength;
    private long elementIndex;

    /**
     * {@code series[f]} tells whether function {@code f} is a generate_series (arguments start, stop,
     * step) or an unnest (argument array), {@code monthZones[f]} the zone a series of timestamps stepping
     * by months adds them in (null for other functions); {@code output} has the input's columns, then one per function.
     */
    public ProjectSetOperator(ExecutionContext context, Operator input, VectorExpression[][] arguments, boolean[] series,
                              SessionTimeZone[] monthZones, Batch output) {
        this.context = context;
        this.input = input;
        this.arguments = arguments;
        this.series = series;
        this.monthZones = monthZones;
        this.output = output;
        int functions = arguments.length;
        this.inputColumns = output.columnCount() - functions;
        this.argumentValues = new ColumnVector[functions][];
        for (int function = 0; function < functions; function++) {
            argumentValues[function] = new ColumnVector[arguments[function].length];
        }
        this.lengths = new long[functions];
        this.starts = new long[functions];
        this.steps = new long[functions];
        this.arrays = new byte[functions][];
        this.arrayOffsets = new int[functions];
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        output.reset();
        int produced = 0;
        while (produced < CAPACITY) {
            if (current == null || rowIndex >= current.selectedCount()) {
                current = input.next();
                if (current == null) {
                    break;
                }
                for (int function = 0; function < arguments.length; function++) {
                    for (int argument = 0; argument < arguments[function].length; argument++) {
                        argumentValues[function][argument] = arguments[function][argument].evaluate(current);
                    }
                }
                rowIndex = 0;
                rowStarted = false;
            }
            int position = current.position(rowIndex);
            if (!rowStarted) {
                rowLength = startRow(position);
                elementIndex = 0;
                rowStarted = true;
            }
            int run = (int) Math.min(rowLength - elementIndex, CAPACITY - produced);
            if (run > 0) {
                copyInput(position, produced, run);
                for (int function = 0; function < arguments.length; function++) {
                    writeValues(function, produced, run);
                }
                elementIndex += run;
                produced += run;
            }
            if (elementIndex >= rowLength) {
                rowIndex++;
                rowStarted = false;
            }
        }
        if (produced == 0) {
            return null;
        }
        output.setRowCount(produced);
        return output;
    }

    /** Reads the functions' arguments for the input row at {@code position}; returns the longest function's length. */
    private long startRow(int position) {
        long longest = 0;
        for (int function = 0; function < arguments.length; function++) {
            ColumnVector[] values = argumentValues[function];
            long length = 0;
            if (series[function]) {
                if (!values[0].isNull(position) && !values[1].isNull(position) && !values[2].isNull(position)) {
                    long start = ((LongVector) values[0]).get(position);
                    long stop = ((LongVector) values[1]).get(position);
                    long step = ((LongVector) values[2]).get(position);
                    if (step == 0) {
                        throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
                    }
                    starts[function] = start;
                    steps[function] = step;
                    length = monthZones[function] != null ? monthSeriesLength(start, stop, step, monthZones[function]) : seriesLength(start, stop, step);
                }
            } else if (!values[0].isNull(position)) {
                BytesVector array = (BytesVector) values[0];
                arrays[function] = array.data();
                arrayOffsets[function] = array.offset(position);
                length = ArrayValue.count(array.data(), array.offset(position));
            }
            lengths[function] = length;
            longest = Math.max(longest, length);
        }
        return longest;
    }

    /**
     * How many values {@code start, start + step, ...} lie between start and stop (inclusive). The
     * distance is taken as an unsigned long, so bigint series from end to end of the range count
     * right; a series of 2^64 values (never finished in practice) is held at Long.MAX_VALUE.
     */
    static long seriesLength(long start, long stop, long step) {
        long distance;
        long stride;
        if (step > 0) {
            if (stop < start) {
                return 0;
            }
            distance = stop - start;
            stride = step;
        } else {
            if (stop > start) {
                return 0;
            }
            distance = start - stop;
            stride = -step; // Long.MIN_VALUE stays 2^63 read unsigned
        }
        long count = Long.divideUnsigned(distance, stride) + 1;
        return count <= 0 ? Long.MAX_VALUE : count;
    }

    /**
     * How many timestamps {@code start}, then each the one before plus {@code months}, lie between
     * start and stop (inclusive). Counted by stepping, since a day clamped at a month's end stays
     * clamped (PostgreSQL adds the step to the previous value): one calendar step per value, the
     * same work as writing the values.
     */
    static long monthSeriesLength(long start, long stop, long months, SessionTimeZone zone) {
        long count = 0;
        try {
            for (long value = start; months > 0 ? value <= stop : value >= stop; value = zone.addMonths(value, months)) {
                count++;
            }
        } catch (ArithmeticException overflow) {
            throw new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
        }
        return count;
    }

    private void copyInput(int position, int target, int run) {
        for (int column = 0; column < inputColumns; column++) {
            ColumnVector from = current.column(column);
            ColumnVector to = output.column(column);
            for (int row = target; row < target + run; row++) {
                to.copyFrom(from, position, row);
            }
        }
    }

    /** Writes function {@code function}'s values for the run's elements, NULL past its end. */
    private void writeValues(int function, int target, int run) {
        ColumnVector column = output.column(inputColumns + function);
        int values = (int) Math.max(0, Math.min(run, lengths[function] - elementIndex));
        if (series[function] && monthZones[function] != null) {
            SessionTimeZone zone = monthZones[function];
            long[] out = ((LongVector) column).values();
            long months = steps[function];
            long value = starts[function];
            for (int row = target; row < target + values; row++) {
                out[row] = value;
                // The last value's successor lies past stop; monthSeriesLength computed it already without overflow.
                value = zone.addMonths(value, months);
            }
            starts[function] = value;
        } else if (series[function]) {
            long[] out = ((LongVector) column).values();
            long step = steps[function];
            // Wrapping arithmetic: every value written lies between start and stop, so it is exact.
            long value = starts[function] + step * elementIndex;
            for (int row = target; row < target + values; row++) {
                out[row] = value;
                value += step;
            }
        } else if (values > 0) {
            writeElements(column, arrays[function], arrayOffsets[function], (int) elementIndex, target, values);
        }
        for (int row = target + values; row < target + run; row++) {
            column.setNull(row);
        }
    }

    private static void writeElements(ColumnVector column, byte[] data, int offset, int firstElement, int target, int count) {
        switch (column) {
            case LongVector longs -> {
                for (int index = 0; index < count; index++) {
                    if (ArrayValue.isNull(data, offset, firstElement + index)) {
                        longs.setNull(target + index);
                    } else {
                        longs.set(target + index, ArrayValue.longAt(data, offset, firstElement + index));
                    }
                }
            }
            case DoubleVector doubles -> {
                for (int index = 0; index < count; index++) {
                    if (ArrayValue.isNull(data, offset, firstElement + index)) {
                        doubles.setNull(target + index);
                    } else {
                        doubles.set(target + index, ArrayValue.doubleAt(data, offset, firstElement + index));
                    }
                }
            }
            case BytesVector bytes -> {
                for (int index = 0; index < count; index++) {
                    int element = firstElement + index;
                    if (ArrayValue.isNull(data, offset, element)) {
                        bytes.setNull(target + index);
                    } else {
                        bytes.set(target + index, data, ArrayValue.bytesOffset(data, offset, element),
                                ArrayValue.bytesLength(data, offset, element));
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        input.close();
    }
}
