package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.explain.ParticipantStatistics;
import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.SpillReader;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayDeque;

/**
 * Aggregate / HashAggregate in any {@link dev.parallax.engine.plan.AggregateMode}: sinks its
 * whole input into a {@link HashAggregation}, then emits the groups in batches. Under a Gather
 * each participant has its own instance and hash table (Partial Aggregate); the Finalize
 * Aggregate above the Gather combines their states.
 * <p>When the aggregation spilled, the groups in memory are emitted first, then each spilled
 * partition is aggregated from its file by a fresh aggregation and emitted in turn (a partition
 * that spills again queues its own partitions). The temporary directory is removed on close,
 * after success, failure or cancellation.
 */
public final class AggregateOperator implements Operator {
    /** A spilled partition waiting to be aggregated, with an empty aggregation of its level to copy. */
    private record PendingPartition(HashPartitions partitions, int partition, HashAggregation template) {
    }

    private final ExecutionContext context;
    private final Operator input;
    private final HashAggregation aggregation;
    private final Batch output;
    private final TemporaryDirectory spillDirectory;
    private final ArrayDeque<PendingPartition> pending = new ArrayDeque<>();
    private final AggregateStatistics statistics = new AggregateStatistics();
    private HashAggregation current;
    private boolean consumed;
    private int nextGroup;
    private boolean closed;
    private ParticipantStatistics explainStatistics;
    private EmptyGroupingSetRow emptyGroupingSetRow;

    /**
     * @param spillDirectory where {@code aggregation} spills (its {@link HashAggregation#enableSpill}
     *                       directory), owned and removed by this operator; null when it never spills
     */
    public AggregateOperator(ExecutionContext context, Operator input, HashAggregation aggregation, Batch output,
                             TemporaryDirectory spillDirectory) {
        this.context = context;
        this.input = input;
        this.aggregation = aggregation;
        this.output = output;
        this.spillDirectory = spillDirectory;
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
            startEmitting(aggregation);
            if (emptyGroupingSetRow != null && aggregation.groupCount() == 0 && pending.isEmpty()) {
                emptyGroupingSetRow.write(output);
                return output;
            }
        }
        while (true) {
            int groupCount = current.groupCount();
            if (nextGroup < groupCount) {
                int count = Math.min(Batch.DEFAULT_CAPACITY, groupCount - nextGroup);
                current.write(nextGroup, count, output);
                nextGroup += count;
                return output;
            }
            PendingPartition next = pending.poll();
            if (next == null) {
                report();
                return null;
            }
            current = null;
            HashAggregation partitionAggregation = next.template().sibling();
            try (SpillReader reader = next.partitions().file(next.partition()).openReader()) {
                Batch batch;
                while ((batch = reader.next()) != null) {
                    context.checkCancelled();
                    partitionAggregation.add(batch);
                }
            }
            PendingPartition following = pending.peek();
            if (following == null || following.partitions() != next.partitions()) {
                // A split's partitions are queued together, ahead of any split of theirs: its file is read out.
                next.partitions().delete();
            }
            startEmitting(partitionAggregation);
        }
    }

    /** The input of {@code finished} ended: emit its groups next and queue its spilled partitions. */
    private void startEmitting(HashAggregation finished) {
        finished.finishInput();
        statistics.recordTable(finished.peakMemoryBytes());
        HashPartitions partitions = finished.spilledPartitions();
        if (partitions != null) {
            HashAggregation template = finished.forPartition();
            for (int partition = 0; partition < HashPartitions.PARTITION_COUNT; partition++) {
                if (partitions.file(partition).rowCount() > 0) {
                    pending.add(new PendingPartition(partitions, partition, template));
                    statistics.recordBatch();
                }
            }
            statistics.recordDisk(partitions.bytes());
        }
        current = finished;
        nextGroup = 0;
    }

    /** Before the first {@link #next}: emit {@code row} when the input turns out to have no row (GROUPING SETS with {@code ()}). */
    void emitForEmptyInput(EmptyGroupingSetRow row) {
        this.emptyGroupingSetRow = row;
    }

    /** Under EXPLAIN ANALYZE: where to record the HashAggregate line when the operator closes. */
    public void reportTo(ParticipantStatistics statistics) {
        this.explainStatistics = statistics;
    }

    /** Records the HashAggregate line under EXPLAIN ANALYZE (at the end of the output, or at close when cut short). */
    private void report() {
        if (explainStatistics != null) {
            explainStatistics.recordHashSpace(statistics.explainLine());
        }
    }

    /** What the aggregation did so far: batches, peak memory, disk (for EXPLAIN ANALYZE). */
    public AggregateStatistics statistics() {
        return statistics;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (consumed) {
            report();
        }
        pending.clear();
        try {
            input.close();
        } finally {
            if (spillDirectory != null) {
                spillDirectory.close();
            }
        }
    }
}
