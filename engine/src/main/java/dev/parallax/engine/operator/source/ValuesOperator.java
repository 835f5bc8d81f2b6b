package dev.parallax.engine.operator.source;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

/** Emits rows already evaluated into batches (VALUES lists), then ends. */
public final class ValuesOperator implements Operator {
    private final Batch[] batches;
    private int nextBatch;

    public ValuesOperator(Batch[] batches) {
        this.batches = batches;
    }

    @Override
    public Batch next() {
        while (nextBatch < batches.length) {
            Batch batch = batches[nextBatch++];
            if (batch.rowCount() > 0) {
                return batch;
            }
        }
        return null;
    }

    @Override
    public void close() {
        nextBatch = batches.length;
    }
}
