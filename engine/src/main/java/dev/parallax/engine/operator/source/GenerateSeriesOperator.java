package dev.parallax.engine.operator.source;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.type.SessionTimeZone;
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
    /** The zone a month step is added in (UTC for timestamps, the session's for timestamps with time zone); null: no month step. */
    private final SessionTimeZone monthZone;
    private final Batch batch;
    private long next;
    private boolean done;

    /**
     * {@code step} is not zero: a count of months added in {@code monthZone}'s local time when that is not
     * null (start and stop are then timestamps), otherwise added as it is; an empty series is given as {@code done}.
     */
    public GenerateSeriesOperator(ExecutionContext context, long start, long stop, long step, SessionTimeZone monthZone, boolean empty,
                                  Batch batch) {
        this.context = context;
        this.next = start;
        this.stop = stop;
        this.step = step;
        this.monthZone = monthZone;
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
        int count = monthZone != null ? fillByMonths(out) : fill(out);
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
                value = monthZone.addMonths(value, step);
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
