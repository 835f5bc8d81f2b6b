package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.UnnestNode;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.cost.CostModel;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * {@code unnest(array)} → UnnestNode. Calcite gives two shapes: an Uncollect over a projection
 * of the array ({@code FROM unnest(ARRAY[1,2])}), and, when the array reads a column of an
 * earlier FROM item ({@code FROM t, unnest(t.a)}), a Correlate whose right side is that Uncollect
 * over a projection of the correlation variable onto one row: the Correlate becomes one
 * UnnestNode over its left input, the array expression reading the left row's columns.
 * PostgreSQL estimates 10 elements per array.
 */
final class UnnestTranslator {
    static final double ELEMENTS_PER_ARRAY = 10;
    private static final double CPU_OPERATOR_COST = 0.0025;

    private UnnestTranslator() {
    }

    static PlanNode translate(Uncollect uncollect, RelTranslator translator) {
        PlanNode input = translator.translate(uncollect.getInput());
        if (input.outputTypes().size() != 1 || input.outputTypes().getFirst().kind() != TypeKind.ARRAY) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "unnest takes one array argument in Parallax");
        }
        Expr array = new ColumnRef(0, input.outputTypes().getFirst());
        return unnest(input, array, false, uncollect.withOrdinality, false);
    }

    /** Whether {@code correlate} is a lateral unnest of its left row's array (the shape {@link #translate(Correlate, RelTranslator)} takes). */
    static boolean isLateralUnnest(Correlate correlate) {
        return correlate.getRight() instanceof Uncollect uncollect && uncollect.getInput() instanceof Project project
                && project.getInput() instanceof Values values && values.getTuples().size() == 1
                && project.getProjects().size() == 1
                && (correlate.getJoinType() == JoinRelType.INNER || correlate.getJoinType() == JoinRelType.LEFT);
    }

    /** A lateral unnest ({@link #isLateralUnnest}) → one UnnestNode over the left input. */
    static PlanNode translate(Correlate correlate, RelTranslator translator) {
        Uncollect uncollect = (Uncollect) correlate.getRight();
        Project project = (Project) uncollect.getInput();
        PlanNode left = translator.translate(correlate.getLeft());
        RexNode arrayOverLeft = project.getProjects().getFirst().accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable
                        && variable.id.equals(correlate.getCorrelationId())) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }
        });
        Expr array = translator.rex().translate(arrayOverLeft);
        if (array.type().kind() != TypeKind.ARRAY) {
            throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "function unnest(%s) does not exist", array.type().sqlName());
        }
        return unnest(left, array, true, uncollect.withOrdinality, correlate.getJoinType() == JoinRelType.LEFT);
    }

    private static PlanNode unnest(PlanNode input, Expr array, boolean keepInput, boolean withOrdinality, boolean outer) {
        PlanEstimate inputEstimate = input.estimate();
        double rows = Math.max(1, inputEstimate.rows() * ELEMENTS_PER_ARRAY);
        UnnestNode shape = new UnnestNode(input, array, keepInput, withOrdinality, outer, inputEstimate);
        PlanEstimate estimate = new PlanEstimate(inputEstimate.startupCost(),
                inputEstimate.totalCost() + rows * CPU_OPERATOR_COST, rows, CostModel.width(shape.outputTypes()));
        return new UnnestNode(input, array, keepInput, withOrdinality, outer, estimate);
    }
}
