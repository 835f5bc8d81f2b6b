package dev.parallax.engine.operator.limit;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

/**
 * Skips {@code offset} live rows, then passes at most {@code limit} (unbounded when negative) by
 * narrowing each batch's selection; stops pulling its input once the limit is reached.
 */
public final class LimitOperator implements Operator {
    private final Operator input;
    private long toSkip;
    private long remaining;
    private final boolean bounded;
    private int[] selection = new int[Batch.DEFAULT_CAPACITY];

    public LimitOperator(Operator input, long offset, long limit) {
        this.input = input;
        this.toSkip = offset;
        this.bounded = limit >= 0;
        this.remaining = limit;
    }

    @Override
    public Batch next() {
        if (bounded && remaining <= 0) {
            return null;
        }
        Batch batch;
        while ((batch = input.next()) != null) {
            int live = batch.selectedCount();
            int first = (int) Math.min(toSkip, live);
            toSkip -= first;
            int count = live - first;
            if (bounded && count > remaining) {
                count = (int) remaining;
            }
            if (count == 0) {
                continue;
            }
            if (bounded) {
                remaining -= count;
            }
            if (first == 0 && count == live) {
                return batch;
            }
            if (selection.length < count) {
                selection = new int[batch.rowCount()];
            }
            int[] inputSelection = batch.selection();
            for (int index = 0; index < count; index++) {
                selection[index] = inputSelection == null ? first + index : inputSelection[first + index];
            }
            batch.setSelection(selection, count);
            return batch;
        }
        return null;
    }

    @Override
    public void close() {
        input.close();
    }
}
