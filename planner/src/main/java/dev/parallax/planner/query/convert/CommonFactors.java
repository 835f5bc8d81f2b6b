package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Pulls the terms every branch of an OR shares out of it: {@code (a AND b) OR (a AND c)} becomes
 * {@code a AND (b OR c)}. TPC-H Q19 repeats its join predicate {@code p_partkey = l_partkey} in
 * each of three OR branches; pulled out, it becomes the hash join's key instead of a filter over a
 * cross join (PostgreSQL does the same in its planner's OR-clause handling).
 */
public final class CommonFactors {
    private CommonFactors() {
    }

    /** The plan with the filter and join conditions that contain an OR factored; {@code plan} when none changes. */
    public static RelNode pullUp(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof Filter filter && hasOr(filter.getCondition())) {
                    RexNode factored = RexUtil.pullFactors(filter.getCluster().getRexBuilder(), filter.getCondition());
                    return factored.equals(filter.getCondition()) ? filter : filter.copy(filter.getTraitSet(), filter.getInput(), factored);
                }
                if (visited instanceof Join join && hasOr(join.getCondition())) {
                    RexNode factored = RexUtil.pullFactors(join.getCluster().getRexBuilder(), join.getCondition());
                    return factored.equals(join.getCondition()) ? join : join.copy(join.getTraitSet(), factored, join.getLeft(),
                            join.getRight(), join.getJoinType(), join.isSemiJoinDone());
                }
                return visited;
            }
        });
    }

    /** Whether the condition is an OR or a conjunction with an OR among its terms. */
    private static boolean hasOr(RexNode condition) {
        if (condition.getKind() == SqlKind.OR) {
            return true;
        }
        if (condition.getKind() == SqlKind.AND) {
            for (RexNode operand : ((RexCall) condition).getOperands()) {
                if (operand.getKind() == SqlKind.OR) {
                    return true;
                }
            }
        }
        return false;
    }
}
