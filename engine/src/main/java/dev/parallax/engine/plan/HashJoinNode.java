package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * A hash join: {@code build} is read completely into a hash table on its {@code buildKeys}, then
 * {@code probe} streams through and looks up its {@code probeKeys} (same count; key i of both sides
 * has the same vector kind and equal values mean equal keys, which the planner ensures with casts).
 * The <em>joined row</em> is the probe columns followed by the build columns; {@code residual} (or
 * null) is a further condition over the joined row, and {@code outputColumns} picks the output
 * from the joined row (only probe columns for SEMI and ANTI).
 *
 * <p>Under a Gather the hash table is built once and shared by every participant. When
 * {@code parallelBuild} is true the build input is partial (a parallel scan below it) and the
 * participants build the table together: PostgreSQL's Parallel Hash; otherwise the first
 * participant builds it and the others wait for it.
 */
public record HashJoinNode(PlanNode probe, PlanNode build, JoinType joinType, int[] probeKeys, int[] buildKeys,
                           Expr residual, int[] outputColumns, boolean parallelBuild, PlanEstimate estimate)
        implements PlanNode {
    public HashJoinNode {
        probeKeys = probeKeys.clone();
        buildKeys = buildKeys.clone();
        outputColumns = outputColumns.clone();
        if (probeKeys.length != buildKeys.length || probeKeys.length == 0) {
            throw new IllegalArgumentException("a hash join needs the same positive number of keys on both sides");
        }
        JoinNodes.checkOutput(joinType, probe, build, outputColumns);
    }

    @Override
    public int[] probeKeys() {
        return probeKeys.clone();
    }

    @Override
    public int[] buildKeys() {
        return buildKeys.clone();
    }

    @Override
    public int[] outputColumns() {
        return outputColumns.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(probe, build);
    }

    /** Types of the joined row: probe columns, then build columns. */
    public List<DataType> joinedTypes() {
        return JoinNodes.joinedTypes(probe, build);
    }

    @Override
    public List<DataType> outputTypes() {
        return JoinNodes.outputTypes(joinedTypes(), outputColumns);
    }

    /** The same join with other inputs and estimate (the parallel planner's rewrite). */
    public HashJoinNode withInputs(PlanNode newProbe, PlanNode newBuild, boolean newParallelBuild, PlanEstimate newEstimate) {
        return new HashJoinNode(newProbe, newBuild, joinType, probeKeys, buildKeys, residual, outputColumns,
                newParallelBuild, newEstimate);
    }

    @Override
    public String toString() {
        return "HashJoinNode[" + joinType + " probeKeys=" + Arrays.toString(probeKeys) + " buildKeys="
                + Arrays.toString(buildKeys) + " residual=" + residual + " output=" + Arrays.toString(outputColumns) + "]";
    }
}
