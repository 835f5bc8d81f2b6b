package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * Runs {@code input} in {@code workersPlanned} workers (plus the leader, when
 * parallel_leader_participation is on) and streams their rows to its caller in arrival order.
 * {@code singleCopy} is debug_parallel_query's "Single Copy": one worker runs the input, the leader does not.
 */
public record GatherNode(PlanNode input, int workersPlanned, boolean singleCopy, PlanEstimate estimate) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return input.outputTypes();
    }
}
