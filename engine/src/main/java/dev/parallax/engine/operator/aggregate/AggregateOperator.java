package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

/**
 * Aggregate / HashAggregate in any {@link dev.parallax.engine.plan.AggregateMode}: sinks its
 * whole input into a {@link HashAggregation}, then emits the groups in batches. Under a Gather
 * each participant has its own instance and hash table (Partial Aggregate); the Finalize
 * Aggregate above the Gather combines their states.
 */
public final class AggregateOperator implements Operator {
    private final ExecutionContext context;
    private final Operator input;
    private final HashAggregation aggregation;
    private final Batch output;
    private boolean consumed;
    private int nextGroup;

    public AggregateOperator(ExecutionContext context, Operator input, HashAggregation aggregation, Batch output) {
        this.context = context;
        this.input = input;
        this.aggregation = aggregation;
        this.output = output;
    }

    @Override
    public Batch next() {
        if (!consumed) {
            Batch batch;
            while ((batch = input.next()) != null) {
                context.checkCancelled();
                aggregation.add(batch);
            }
            consumed = true;
        }
        int groupCount = aggregation.groupCount();
        if (nextGroup >= groupCount) {
            return null;
        }
        int count = Math.min(Batch.DEFAULT_CAPACITY, groupCount - nextGroup);
        aggregation.write(nextGroup, count, output);
        nextGroup += count;
        return output;
    }

    @Override
    public void close() {
        input.close();
    }
}
