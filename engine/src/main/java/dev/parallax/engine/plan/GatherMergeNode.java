package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * PostgreSQL's Gather Merge: runs {@code input} in {@code workersPlanned} workers (plus the leader,
 * when parallel_leader_participation is on), each participant producing its share of the rows in
 * {@code keys} order (the input is a per-participant Sort), and merges the participants' streams so
 * that its caller receives all rows in {@code keys} order.
 */
public record GatherMergeNode(PlanNode input, int workersPlanned, List<SortKey> keys, PlanEstimate estimate) implements PlanNode {
    public GatherMergeNode {
        keys = List.copyOf(keys);
        if (workersPlanned < 0) {
            throw new IllegalArgumentException("workersPlanned must not be negative: " + workersPlanned);
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return input.outputTypes();
    }
}
