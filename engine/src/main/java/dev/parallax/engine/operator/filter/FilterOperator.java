package dev.parallax.engine.operator.filter;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.vector.Batch;

/**
 * Keeps the rows where the condition is TRUE by narrowing the input batch's selection; never copies
 * rows. A hash join above may add {@link JoinKeyFilter}s, checked before the condition.
 */
public final class FilterOperator implements Operator {
    private final Operator input;
    private final Predicate predicate;
    private int[] selection = new int[Batch.DEFAULT_CAPACITY];
    private JoinKeyFilter[] keyFilters = new JoinKeyFilter[0];

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
            if (keyFilters.length > 0 && !applyKeyFilters(batch)) {
                continue;
            }
            int live = predicate.select(batch, selection);
            if (live > 0) {
                batch.setSelection(selection, live);
                return batch;
            }
        }
        return null;
    }

    /** Narrows the batch's selection by the key filters; false when no row is left. */
    private boolean applyKeyFilters(Batch batch) {
        for (JoinKeyFilter filter : keyFilters) {
            if (filter.disabled()) {
                continue;
            }
            int live = filter.select(batch, selection);
            if (live == 0) {
                return false;
            }
            batch.setSelection(selection, live);
        }
        return true;
    }

    /**
     * Adds a filter checked before the condition, from the operator consuming this one (a hash
     * join whose build finished: rows it drops could not match there). Called by the consumer's
     * thread between calls of {@link #next()}.
     */
    public void addKeyFilter(JoinKeyFilter filter) {
        JoinKeyFilter[] filters = java.util.Arrays.copyOf(keyFilters, keyFilters.length + 1);
        filters[keyFilters.length] = java.util.Objects.requireNonNull(filter, "filter");
        keyFilters = filters;
    }

    @Override
    public void close() {
        input.close();
    }
}
