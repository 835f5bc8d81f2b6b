package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A correlated nested loop (PostgreSQL's SubPlan, or a Nested Loop with parameters): for every
 * row of {@code outer}, the columns in {@code correlatedColumns} are bound to the parameters
 * {@code parameterBase + column} and {@code inner}, a plan reading them through
 * {@link dev.parallax.engine.expr.Parameter}s, runs from its start. The planner uses it for the
 * correlated subqueries it cannot turn into joins (an outer column inside a function's argument,
 * {@code generate_series(1, t.n)} or {@code unnest(t.a)}). {@code joinType}, stated with outer as
 * the probe side: INNER pairs the outer row with each inner row; LEFT also keeps an outer row
 * with no inner row, NULLs for the inner columns; SEMI keeps the outer row once when the inner
 * plan gives a row; ANTI when it gives none. Output: the outer columns, then (INNER, LEFT) the
 * inner columns. The inner plan runs serially, in the participant that runs this node.
 */
public record CorrelateNode(PlanNode outer, PlanNode inner, JoinType joinType, int[] correlatedColumns, int parameterBase,
                            PlanEstimate estimate) implements PlanNode {
    public CorrelateNode {
        if (joinType == JoinType.RIGHT || joinType == JoinType.FULL) {
            throw new IllegalArgumentException("a correlated nested loop cannot be a " + joinType + " join");
        }
        correlatedColumns = correlatedColumns.clone();
        for (int column : correlatedColumns) {
            if (column < 0 || column >= outer.outputTypes().size()) {
                throw new IllegalArgumentException("correlated column " + column + " is not an outer column");
            }
        }
        if (parameterBase < 0) {
            throw new IllegalArgumentException("parameter base " + parameterBase);
        }
    }

    @Override
    public int[] correlatedColumns() {
        return correlatedColumns.clone();
    }

    /** The parameter index the outer column {@code column} is bound to. */
    public int parameterIndex(int column) {
        return parameterBase + column;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(outer, inner);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> types = new ArrayList<>(outer.outputTypes());
        if (joinType.emitsPairs()) {
            types.addAll(inner.outputTypes());
        }
        return types;
    }

    @Override
    public String toString() {
        return "CorrelateNode[" + joinType + " correlated=" + Arrays.toString(correlatedColumns) + " base=" + parameterBase + "]";
    }
}
