package dev.parallax.engine.operator.recursive;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Reads the rows of a {@link WorkTable} for one run of a recursive term: the batches the previous
 * run kept, as they are (they live until the Recursive Union advances, after this run ends).
 */
final class WorkTableScanOperator implements Operator {
    private final ExecutionContext context;
    private final List<Batch> rows;
    private int nextBatch;

    WorkTableScanOperator(ExecutionContext context, WorkTable workTable) {
        this.context = context;
        this.rows = workTable.rows();
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        while (nextBatch < rows.size()) {
            Batch batch = rows.get(nextBatch++);
            // A consumer may have narrowed the batch's selection in an earlier read: all its rows are live.
            batch.setRowCount(batch.rowCount());
            if (batch.rowCount() > 0) {
                return batch;
            }
        }
        return null;
    }

    @Override
    public void close() {
    }
}
