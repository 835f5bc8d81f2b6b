package dev.parallax.engine.operator.sort;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Materializes its whole input, sorts it with {@link RowSorter}, and emits the rows in order in
 * batches; with a limit (top-N) it emits only the first {@code limit} rows.
 */
public final class SortOperator implements Operator {
    private final ExecutionContext context;
    private final Operator input;
    private final List<SortKey> keys;
    private final long limit;
    private final List<DataType> types;
    private Batch rows;
    private int rowCount;
    private int[] order;
    private int emitted;
    private int outputRows;
    private Batch output;

    public SortOperator(ExecutionContext context, Operator input, List<DataType> types, List<SortKey> keys, long limit) {
        this.context = context;
        this.input = input;
        this.types = types;
        this.keys = keys;
        this.limit = limit;
    }

    @Override
    public Batch next() {
        if (order == null) {
            materialize();
        }
        if (emitted >= outputRows) {
            return null;
        }
        context.checkCancelled();
        int count = Math.min(Batch.DEFAULT_CAPACITY, outputRows - emitted);
        BatchCopier.gather(rows, order, emitted, count, output);
        emitted += count;
        return output;
    }

    private void materialize() {
        rows = BatchCopier.emptyLike(types, Batch.DEFAULT_CAPACITY);
        Batch batch;
        while ((batch = input.next()) != null) {
            BatchCopier.appendLiveRows(batch, rows, rowCount);
            rowCount += batch.selectedCount();
        }
        rows.setRowCount(rowCount);
        order = RowSorter.sort(rows, rowCount, keys);
        outputRows = limit >= 0 ? (int) Math.min(limit, rowCount) : rowCount;
        output = Batch.create(types, Batch.DEFAULT_CAPACITY);
    }

    @Override
    public void close() {
        rows = null;
        input.close();
    }
}
