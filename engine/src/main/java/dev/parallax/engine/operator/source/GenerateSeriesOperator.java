package dev.parallax.engine.operator.source;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code generate_series(start, stop, step)} over integers, or over timestamps (microseconds) with
 * an interval step, {@link Batch#DEFAULT_CAPACITY} values per batch. A step of months is added to
 * each value in turn, as PostgreSQL's generate_series_timestamp does: the day clamps at a month's
 * end and stays clamped (Jan 31, Feb 29, Mar 29), which no start + n * step formula gives.
 */
public final class GenerateSeriesOperator implements Operator {
    private final ExecutionContext context;
    private final long stop;
    private final long step;
    private final boolean monthStep;
    private final Batch batch;
    private long next;
    private boolean done;

    /**
     * {@code step} is not zero: a count of months when {@code monthStep} (start and stop are then
     * timestamps), otherwise added as it is; an empty series is given as {@code done}.
     */
    public GenerateSeriesOperator(ExecutionContext context, long start, long stop, long step, boolean monthStep, boolean empty,
                                  Batch batch) {
        this.context = context;
        this.next = start;
        this.stop = stop;
        this.step = step;
        this.monthStep = monthStep;
        this.batch = batch;
        this.done = empty;
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        context.checkCancelled();
        LongVector values = (LongVector) batch.column(0);
        values.reset(batch.rowCount());
        long[] out = values.values();
        int count = monthStep ? fillByMonths(out) : fill(out);
        if (count == 0) {
            return null;
        }
        batch.setRowCount(count);
        return batch;
    }

    private int fill(long[] out) {
        int count = 0;
        long value = next;
        while (count < out.length) {
            if (step > 0 ? value > stop : value < stop) {
                done = true;
                break;
            }
            out[count++] = value;
            long following = value + step;
            // Overflow past Long range means the series has passed stop (PostgreSQL stops there too).
            if (((value ^ following) & (step ^ following)) < 0) {
                done = true;
                break;
            }
            value = following;
        }
        next = value;
        return count;
    }

    private int fillByMonths(long[] out) {
        int count = 0;
        long value = next;
        try {
            while (count < out.length) {
                if (step > 0 ? value > stop : value < stop) {
                    done = true;
                    break;
                }
                out[count++] = value;
                value = DateTimes.addMonthsToTimestamp(value, step);
            }
        } catch (ArithmeticException overflow) {
            throw new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
        }
        next = value;
        return count;
    }

    @Override
    public void close() {
        done = true;
    }
}
