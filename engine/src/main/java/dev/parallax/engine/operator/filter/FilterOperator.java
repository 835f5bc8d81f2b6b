package dev.parallax.engine.operator.filter;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.vector.Batch;

/** Keeps the rows where the condition is TRUE by narrowing the input batch's selection; never copies rows. */
public final class FilterOperator implements Operator {
    private final Operator input;
    private final Predicate predicate;
    private int[] selection = new int[Batch.DEFAULT_CAPACITY];

    public FilterOperator(Operator input, Predicate predicate) {
        this.input = input;
        this.predicate = predicate;
    }

    @Override
    public Batch next() {
        Batch batch;
        while ((batch = input.next()) != null) {
            if (selection.length < batch.rowCount()) {
                selection = new int[batch.rowCount()];
            }
            int live = predicate.select(batch, selection);
            if (live > 0) {
                batch.setSelection(selection, live);
                return batch;
            }
        }
        return null;
    }

    @Override
    public void close() {
        input.close();
    }
}
