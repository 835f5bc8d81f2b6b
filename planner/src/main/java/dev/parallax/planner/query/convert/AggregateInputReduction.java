package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Restricts a grouped aggregate's input to the groups an inner join on its grouping keys can keep:
 * {@code Agg(T) JOIN S ON agg.k = S.k} becomes {@code Agg(T SEMI JOIN S ON T.k = S.k) JOIN S ON ...}
 * when S is estimated at most half of T's rows. Groups without a partner in S were dropped by
 * the join anyway, and each kept group still sees all its rows, so the result is unchanged; the
 * aggregate then reads only the rows of the groups that matter. This is what a decorrelated
 * correlated subquery needs (DuckDB's delim join does the same): TPC-H Q17 averages lineitem per
 * part for ~200 filtered parts instead of all 200,000, Q20 sums lineitem per (part, supplier) for
 * the ~8,500 'forest' partsupp rows instead of 540,000 groups. S is planned twice (it is small).
 */
public final class AggregateInputReduction {
    /** The aggregate's input must be at least this many times S's estimated rows. */
    private static final double MINIMUM_REDUCTION = 2;

    private AggregateInputReduction() {
    }

    /** The plan with semi joins added below the aggregates that inner joins on their grouping keys can reduce. */
    public static RelNode apply(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof Join join && join.getJoinType() == JoinRelType.INNER) {
                    RelNode reduced = reduce(join);
                    return reduced != null ? reduced : visited;
                }
                return visited;
            }
        });
    }

    /** The join with its left (or right) aggregate input reduced by the other input; null when it does not apply. */
    private static RelNode reduce(Join join) {
        // Strict equalities only: an IS NOT DISTINCT FROM key would keep NULL groups a plain semi join drops.
        JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), join.getCondition());
        if (info.leftKeys.isEmpty()) {
            return null;
        }
        RelNode left = reduceSide(join, join.getLeft(), join.getRight(), info.leftKeys, info.rightKeys);
        if (left != null) {
            return join.copy(join.getTraitSet(), join.getCondition(), left, join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        }
        RelNode right = reduceSide(join, join.getRight(), join.getLeft(), info.rightKeys, info.leftKeys);
        if (right != null) {
            return join.copy(join.getTraitSet(), join.getCondition(), join.getLeft(), right, join.getJoinType(), join.isSemiJoinDone());
        }
        return null;
    }

    /**
     * {@code side} rebuilt with its aggregate's input semi-joined to {@code other} on the keys that
     * trace to grouping columns; null when no key does, or when {@code other} is not small enough.
     */
    private static RelNode reduceSide(Join join, RelNode side, RelNode other, List<Integer> sideKeys, List<Integer> otherKeys) {
        List<RelNode> path = new ArrayList<>();
        RelNode node = side;
        while (node instanceof Project || node instanceof Filter) {
            path.add(node);
            node = node.getInput(0);
        }
        if (!(node instanceof Aggregate aggregate) || aggregate.getGroupSet().isEmpty()
                || aggregate.getGroupType() != Aggregate.Group.SIMPLE || !isDeterministic(other)) {
            return null;
        }
        RelNode input = aggregate.getInput();
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        int inputFields = input.getRowType().getFieldCount();
        List<RexNode> equalities = new ArrayList<>();
        for (int key = 0; key < sideKeys.size(); key++) {
            int column = traceToAggregate(path, sideKeys.get(key));
            if (column < 0 || column >= aggregate.getGroupCount()) {
                continue;
            }
            int inputColumn = aggregate.getGroupSet().asList().get(column);
            int otherColumn = otherKeys.get(key);
            equalities.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                    RexInputRef.of(inputColumn, input.getRowType()),
                    new RexInputRef(inputFields + otherColumn, other.getRowType().getFieldList().get(otherColumn).getType())));
        }
        if (equalities.isEmpty()) {
            return null;
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        Double otherRows = mq.getRowCount(other);
        Double inputRows = mq.getRowCount(input);
        if (otherRows == null || inputRows == null || otherRows * MINIMUM_REDUCTION > inputRows) {
            return null;
        }
        RelNode semiJoin = LogicalJoin.create(input, other, List.of(), RexUtil.composeConjunction(rexBuilder, equalities),
                Set.of(), JoinRelType.SEMI);
        RelNode rebuilt = aggregate.copy(aggregate.getTraitSet(), List.of(semiJoin));
        for (int index = path.size() - 1; index >= 0; index--) {
            RelNode above = path.get(index);
            rebuilt = above.copy(above.getTraitSet(), List.of(rebuilt));
        }
        return rebuilt;
    }

    /** The aggregate output column that column {@code column} of the path's top is, through plain projections; -1 if none. */
    private static int traceToAggregate(List<RelNode> path, int column) {
        for (RelNode node : path) {
            if (node instanceof Project project) {
                if (!(project.getProjects().get(column) instanceof RexInputRef reference)) {
                    return -1;
                }
                column = reference.getIndex();
            }
        }
        return column;
    }

    /** True when no expression in the tree is volatile (planning it twice gives the same rows). */
    private static boolean isDeterministic(RelNode tree) {
        boolean[] deterministic = {true};
        tree.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode node) {
                node.accept(new RexShuttle() {
                    @Override
                    public RexNode visitCall(RexCall call) {
                        if (!call.getOperator().isDeterministic()) {
                            deterministic[0] = false;
                        }
                        return super.visitCall(call);
                    }
                });
                return super.visit(node);
            }
        });
        return deterministic[0];
    }
}
