package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.IntervalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** TableFunctionScan of generate_series → GenerateSeriesNode; PostgreSQL estimates 1000 rows. */
final class GenerateSeriesTranslator {
    static final double FUNCTION_ROWS = 1000;

    private GenerateSeriesTranslator() {
    }

    static PlanNode translate(TableFunctionScan scan, RelTranslator translator) {
        if (!(scan.getCall() instanceof RexCall call) || call.getOperator() != ParallaxFunctions.GENERATE_SERIES) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "table function %s is not supported", scan.getCall());
        }
        DataType type = TypeMapping.toEngine(scan.getRowType().getFieldList().getFirst().getType());
        List<Expr> arguments = arguments(call.getOperands(), type, translator);
        return new GenerateSeriesNode(arguments.get(0), arguments.get(1), arguments.get(2), type,
                translator.cost().rows(FUNCTION_ROWS, dev.parallax.planner.query.cost.CostModel.width(List.of(type))));
    }

    /**
     * {@code start, stop, step} of a generate_series call as engine expressions: start and stop of
     * the series' {@code type}, the step of that type too over integers (1 when omitted) and an
     * interval, of either kind, over timestamps.
     */
    static List<Expr> arguments(List<RexNode> operands, DataType type, RelTranslator translator) {
        Expr start = ArgumentTypes.castTo(translator.rex().translate(operands.get(0)), type);
        Expr stop = ArgumentTypes.castTo(translator.rex().translate(operands.get(1)), type);
        Expr step = operands.size() <= 2 ? Literal.ofLong(1, type)
                : type.kind() == TypeKind.TIMESTAMP || type.kind() == TypeKind.TIMESTAMPTZ ? intervalStep(translator.rex().translate(operands.get(2)))
                : ArgumentTypes.castTo(translator.rex().translate(operands.get(2)), type);
        return List.of(start, stop, step);
    }

    /**
     * A timestamp series' step: an interval as it is, a quoted literal read as an interval of the kind
     * its text is (PostgreSQL resolves the unknown literal to interval); months with days or time
     * are an interval Parallax cannot hold.
     */
    private static Expr intervalStep(Expr step) {
        if (!step.type().kind().isText()) {
            return step;
        }
        if (!(step instanceof Literal literal) || !(literal.value() instanceof byte[] bytes)) {
            throw new IllegalStateException("generate_series step " + step);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        long[] parts = IntervalMath.parse(text);
        if (parts[0] != 0 && parts[1] != 0) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "interval '%s' mixes months with days or time, which Parallax intervals cannot hold", text);
        }
        return parts[0] != 0 ? Literal.ofLong(parts[0], DataType.INTERVAL_YEAR_MONTH) : Literal.ofLong(parts[1], DataType.INTERVAL_DAY_TIME);
    }
}
