package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectSetNode;
import dev.parallax.engine.plan.SetReturningFunction;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.convert.ProjectSetRel;
import dev.parallax.planner.query.function.SetReturningOperator;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rex.RexCall;

import java.util.ArrayList;
import java.util.List;

/**
 * ProjectSetRel → ProjectSetNode. Rows per input row as PostgreSQL estimates them: a
 * generate_series of constants its exact length (its support function), otherwise 1000 (as in
 * FROM); an unnest or regexp_split_to_table 10 (UnnestTranslator's figure); the longest call sets the count.
 */
final class ProjectSetTranslator {
    private ProjectSetTranslator() {
    }

    static PlanNode translate(ProjectSetRel projectSet, RelTranslator translator) {
        PlanNode input = translator.translate(projectSet.getInput());
        List<SetReturningFunction> functions = new ArrayList<>();
        double rowsPerInputRow = 1;
        for (RexCall call : projectSet.calls()) {
            if (call.getOperator() == SetReturningOperator.GENERATE_SERIES) {
                DataType type = TypeMapping.toEngine(call.getType());
                List<Expr> arguments = GenerateSeriesTranslator.arguments(call.getOperands(), type, translator);
                functions.add(new SetReturningFunction.Series(arguments.get(0), arguments.get(1), arguments.get(2), type));
                rowsPerInputRow = Math.max(rowsPerInputRow, seriesRows(arguments.get(0), arguments.get(1), arguments.get(2)));
            } else if (call.getOperator() == SetReturningOperator.REGEXP_SPLIT_TO_TABLE) {
                List<Expr> arguments = new ArrayList<>(call.getOperands().size());
                for (org.apache.calcite.rex.RexNode operand : call.getOperands()) {
                    arguments.add(ArgumentTypes.castTo(translator.rex().translate(operand), DataType.TEXT));
                }
                functions.add(new SetReturningFunction.Unnest(new Call(Function.REGEXP_SPLIT_TO_TABLE, arguments, DataType.array(DataType.TEXT))));
                rowsPerInputRow = Math.max(rowsPerInputRow, UnnestTranslator.ELEMENTS_PER_ARRAY);
            } else {
                Expr array = translator.rex().translate(call.getOperands().getFirst());
                if (array.type().kind() != TypeKind.ARRAY) {
                    throw new IllegalStateException("unnest of " + array.type());
                }
                functions.add(new SetReturningFunction.Unnest(array));
                rowsPerInputRow = Math.max(rowsPerInputRow, UnnestTranslator.ELEMENTS_PER_ARRAY);
            }
        }
        ProjectSetNode shape = new ProjectSetNode(input, functions, input.estimate());
        return new ProjectSetNode(input, functions, translator.cost().projectSet(input.estimate(), rowsPerInputRow,
                functions.size(), shape.outputTypes()));
    }

    private static double seriesRows(Expr start, Expr stop, Expr step) {
        // PostgreSQL 15's support function counts integer series only; a timestamp series is 1000 rows.
        if (start.type().kind() != TypeKind.TIMESTAMP && start.type().kind() != TypeKind.TIMESTAMPTZ && start instanceof Literal first && stop instanceof Literal last && step instanceof Literal stride
                && first.value() instanceof Number from && last.value() instanceof Number to
                && stride.value() instanceof Number by && by.longValue() != 0) {
            return Math.max(1, Math.floor(((double) to.longValue() - from.longValue()) / by.longValue()) + 1);
        }
        return GenerateSeriesTranslator.FUNCTION_ROWS;
    }
}
