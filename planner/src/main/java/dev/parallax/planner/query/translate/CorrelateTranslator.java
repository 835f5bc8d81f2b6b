package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.CorrelateNode;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.planner.query.cost.CostModel;
import org.apache.calcite.rel.core.Correlate;

/**
 * A Correlate the decorrelator left in place (an outer column inside a function's argument,
 * {@code generate_series(1, t.n)}, {@code unnest(t.a)}, or a LATERAL subquery) → CorrelateNode:
 * the right side runs once per left row with the left row's columns as parameters, as PostgreSQL
 * runs a SubPlan. A lateral {@code unnest} of the left row's array keeps its own node
 * ({@link UnnestTranslator}). The estimate is the right side's cost once per left row.
 */
final class CorrelateTranslator {
    private CorrelateTranslator() {
    }

    static PlanNode translate(Correlate correlate, RelTranslator translator) {
        if (UnnestTranslator.isLateralUnnest(correlate)) {
            return UnnestTranslator.translate(correlate, translator);
        }
        JoinType joinType = switch (correlate.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "a correlated %s join is not supported", correlate.getJoinType().lowerName);
        };
        PlanNode outer = translator.translate(correlate.getLeft());
        int base = translator.rex().bindCorrelation(correlate.getCorrelationId(), outer.outputTypes());
        PlanNode inner = translator.translate(correlate.getRight());
        int[] correlated = correlate.getRequiredColumns().toArray();
        CorrelateNode shape = new CorrelateNode(outer, inner, joinType, correlated, base, outer.estimate());
        return new CorrelateNode(outer, inner, joinType, correlated, base, estimate(outer.estimate(), inner.estimate(), joinType,
                CostModel.width(shape.outputTypes())));
    }

    private static PlanEstimate estimate(PlanEstimate outer, PlanEstimate inner, JoinType joinType, int width) {
        double loops = Math.max(1, outer.rows());
        double rows = switch (joinType) {
            case INNER -> outer.rows() * inner.rows();
            case LEFT -> outer.rows() * Math.max(1, inner.rows());
            default -> outer.rows() * 0.5;
        };
        return new PlanEstimate(outer.startupCost() + inner.startupCost(), outer.totalCost() + loops * inner.totalCost(),
                Math.max(1, rows), width);
    }
}
