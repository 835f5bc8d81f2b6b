package dev.parallax.engine.operator.source;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

/** {@code generate_series(start, stop, step)} over integers, {@link Batch#DEFAULT_CAPACITY} values per batch. */
public final class GenerateSeriesOperator implements Operator {
    private final ExecutionContext context;
    private final long stop;
    private final long step;
    private final Batch batch;
    private long next;
    private boolean done;

    /** {@code step} is not zero; an empty series is given as {@code done}. */
    public GenerateSeriesOperator(ExecutionContext context, long start, long stop, long step, boolean empty, Batch batch) {
        this.context = context;
        this.next = start;
        this.stop = stop;
        this.step = step;
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
        if (count == 0) {
            return null;
        }
        batch.setRowCount(count);
        return batch;
    }

    @Override
    public void close() {
        done = true;
    }
}
