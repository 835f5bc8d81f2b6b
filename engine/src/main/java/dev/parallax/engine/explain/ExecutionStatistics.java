package dev.parallax.engine.explain;

import dev.parallax.engine.plan.PlanNode;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The runtime statistics of one EXPLAIN ANALYZE execution, one {@link NodeStatistics} per plan
 * node (by identity). Created before the execution for the whole plan, so lookups need no locking.
 */
public final class ExecutionStatistics {
    private final Map<PlanNode, NodeStatistics> nodes = new IdentityHashMap<>();

    private ExecutionStatistics() {
    }

    public static ExecutionStatistics forPlan(PlanNode root) {
        ExecutionStatistics statistics = new ExecutionStatistics();
        statistics.register(Objects.requireNonNull(root, "root"));
        return statistics;
    }

    private void register(PlanNode node) {
        nodes.put(node, new NodeStatistics());
        for (PlanNode input : node.inputs()) {
            register(input);
        }
    }

    /** Statistics of {@code node}, which must belong to the plan this was created for. */
    public NodeStatistics node(PlanNode node) {
        NodeStatistics statistics = nodes.get(node);
        if (statistics == null) {
            throw new IllegalArgumentException("plan node is not part of this plan: " + node);
        }
        return statistics;
    }
}
