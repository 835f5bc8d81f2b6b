package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexCall;

import java.util.List;

/** TableFunctionScan of generate_series → GenerateSeriesNode; PostgreSQL estimates 1000 rows. */
final class GenerateSeriesTranslator {
    private static final double FUNCTION_ROWS = 1000;

    private GenerateSeriesTranslator() {
    }

    static PlanNode translate(TableFunctionScan scan, RelTranslator translator) {
        if (!(scan.getCall() instanceof RexCall call) || call.getOperator() != ParallaxFunctions.GENERATE_SERIES) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "table function %s is not supported", scan.getCall());
        }
        DataType type = TypeMapping.toEngine(scan.getRowType().getFieldList().getFirst().getType());
        Expr start = ArgumentTypes.castTo(translator.rex().translate(call.getOperands().get(0)), type);
        Expr stop = ArgumentTypes.castTo(translator.rex().translate(call.getOperands().get(1)), type);
        Expr step = call.getOperands().size() > 2
                ? ArgumentTypes.castTo(translator.rex().translate(call.getOperands().get(2)), type)
                : Literal.ofLong(1, type);
        return new GenerateSeriesNode(start, stop, step, type,
                translator.cost().rows(FUNCTION_ROWS, dev.parallax.planner.query.cost.CostModel.width(List.of(type))));
    }
}
