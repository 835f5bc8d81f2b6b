package dev.parallax.engine.explain;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanNode;

/**
 * What execution-time pruning would remove with a statement's parameter values, without running
 * it: for EXPLAIN of a prepared statement with its values (EXPLAIN EXECUTE), which PostgreSQL
 * prints after the executor's start has pruned ({@code Subplans Removed: N}, the removed
 * partitions left out).
 */
public final class InitialPruning {
    private InitialPruning() {
    }

    /** Statistics of {@code root} holding only the pruned inputs of its partition Appends, for {@link ExplainPrinter}. */
    public static ExecutionStatistics of(PlanNode root, ExecutionContext context) {
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(root);
        prune(root, context, statistics);
        return statistics;
    }

    private static void prune(PlanNode node, ExecutionContext context, ExecutionStatistics statistics) {
        if (node instanceof PartitionAppendNode append && append.runtimePruning() != null) {
            statistics.node(append).setPrunedInputs(removedInputs(append, context));
        }
        for (PlanNode input : node.inputs()) {
            prune(input, context, statistics);
        }
    }

    /**
     * The inputs of {@code append} (by input index) that pruning with {@code context}'s parameter
     * values removes; the Append must have execution-time pruning.
     */
    public static boolean[] removedInputs(PartitionAppendNode append, ExecutionContext context) {
        boolean[] survivors = append.runtimePruning().survivors(append.router(), context);
        int[] ordinals = append.inputOrdinals();
        boolean[] removed = new boolean[ordinals.length];
        for (int input = 0; input < ordinals.length; input++) {
            removed[input] = !survivors[ordinals[input]];
        }
        return removed;
    }
}
