package dev.parallax.engine.exec;

import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.plan.PlanNode;

import java.util.Objects;

/**
 * Turns a physical plan into running operators. The caller pulls batches from the returned root
 * operator until it returns null and then closes it (also after a failure); closing the root
 * closes the whole tree, including the workers of every Gather.
 */
public final class Executor {
    private Executor() {
    }

    /** Opens {@code root} for one execution in {@code context}, without EXPLAIN ANALYZE statistics. */
    public static Operator open(PlanNode root, ExecutionContext context) {
        return open(root, context, null);
    }

    /**
     * Opens {@code root}; when {@code statistics} is non-null (EXPLAIN ANALYZE, created with
     * {@link ExecutionStatistics#forPlan}) and {@code context.collectStatistics()} is true, every
     * operator records its rows, loops and time there, per participant.
     */
    public static Operator open(PlanNode root, ExecutionContext context, ExecutionStatistics statistics) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(context, "context");
        ExecutionStatistics recorded = context.collectStatistics() ? statistics : null;
        return OperatorBuilder.forLeader(context, recorded).build(root);
    }
}
