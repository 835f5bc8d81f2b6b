package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.rules.SemiJoinJoinTransposeRule;

/**
 * Calcite's semi-join-past-join rule restricted to semi joins whose condition is only equalities:
 * with another term (TPC-H Q21's {@code l2.l_suppkey <> l1.l_suppkey}) Calcite 1.42's rule reads
 * a key list out of bounds. Such semi joins stay where they are.
 */
public final class EquiSemiJoinJoinTransposeRule extends SemiJoinJoinTransposeRule {
    public static final EquiSemiJoinJoinTransposeRule INSTANCE = new EquiSemiJoinJoinTransposeRule();

    private EquiSemiJoinJoinTransposeRule() {
        super(SemiJoinJoinTransposeRule.Config.DEFAULT);
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Join semiJoin = call.rel(0);
        return semiJoin.analyzeCondition().isEqui();
    }
}
