package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * A nested-loop join, for joins without an equi key (cross joins, non-equi conditions, the one-row
 * side of an uncorrelated scalar subquery): {@code inner} is read completely, then every row of
 * {@code outer} is paired with every inner row and {@code condition} (or null: always true) is
 * evaluated over the joined row (outer columns, then inner columns). {@code joinType} is stated
 * with outer as the probe side and inner as the build side; {@code outputColumns} picks the output
 * from the joined row. Under a Gather the inner rows are read once and shared by all participants.
 */
public record NestedLoopJoinNode(PlanNode outer, PlanNode inner, JoinType joinType, Expr condition,
                                 int[] outputColumns, PlanEstimate estimate) implements PlanNode {
    public NestedLoopJoinNode {
        outputColumns = outputColumns.clone();
        JoinNodes.checkOutput(joinType, outer, inner, outputColumns);
    }

    @Override
    public int[] outputColumns() {
        return outputColumns.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(outer, inner);
    }

    /** Types of the joined row: outer columns, then inner columns. */
    public List<DataType> joinedTypes() {
        return JoinNodes.joinedTypes(outer, inner);
    }

    @Override
    public List<DataType> outputTypes() {
        return JoinNodes.outputTypes(joinedTypes(), outputColumns);
    }

    /** The same join with another outer input and estimate (the parallel planner's rewrite). */
    public NestedLoopJoinNode withOuter(PlanNode newOuter, PlanEstimate newEstimate) {
        return new NestedLoopJoinNode(newOuter, inner, joinType, condition, outputColumns, newEstimate);
    }

    @Override
    public String toString() {
        return "NestedLoopJoinNode[" + joinType + " condition=" + condition + " output=" + Arrays.toString(outputColumns) + "]";
    }
}
