package dev.parallax.engine.sort;

import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/** Emits the rows of an in-memory sort: gathers them by their sorted positions into one reused batch. */
final class BufferedOutput implements SortedOutput {
    private final Batch output;
    private final int rowCount;
    private final Runnable onClose;
    private Batch rows;
    private int[] order;
    private int emitted;

    BufferedOutput(List<DataType> columnTypes, Batch rows, int[] order, int rowCount, Runnable onClose) {
        this.rows = rows;
        this.order = order;
        this.rowCount = rowCount;
        this.onClose = onClose;
        this.output = Batch.create(columnTypes, Batch.DEFAULT_CAPACITY);
    }

    @Override
    public Batch next() {
        if (rows == null || emitted >= rowCount) {
            close();
            return null;
        }
        int count = Math.min(Batch.DEFAULT_CAPACITY, rowCount - emitted);
        BatchCopier.gather(rows, order, emitted, count, output);
        emitted += count;
        return output;
    }

    @Override
    public void close() {
        if (rows != null) {
            rows = null;
            order = null;
            onClose.run();
        }
    }
}
