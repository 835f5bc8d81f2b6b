package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.core.TableModify;

import java.util.ArrayList;
import java.util.List;

/**
 * TableModify(INSERT) → InsertNode. Calcite's converter already orders the source as the table's
 * columns with NULL for omitted ones; this adds PostgreSQL's assignment casts (a too-long varchar
 * fails with 22001 in the engine's cast) where a source type differs from its column.
 */
final class InsertTranslator {
    private InsertTranslator() {
    }

    static PlanNode translate(TableModify modify, RelTranslator translator) {
        if (modify.getOperation() != TableModify.Operation.INSERT) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "%s is not supported yet",
                    modify.getOperation().name());
        }
        Table table = modify.getTable().unwrapOrThrow(EngineTable.class).table();
        PlanNode input = translator.translate(modify.getInput());
        List<DataType> sourceTypes = input.outputTypes();
        List<DataType> targetTypes = table.columnTypes();
        if (!sourceTypes.equals(targetTypes)) {
            List<Expr> casts = new ArrayList<>(targetTypes.size());
            for (int index = 0; index < targetTypes.size(); index++) {
                casts.add(ArgumentTypes.castTo(new ColumnRef(index, sourceTypes.get(index)), targetTypes.get(index)));
            }
            input = new ProjectNode(input, casts, translator.cost().project(input.estimate(), casts, targetTypes));
        }
        PlanEstimate estimate = input.estimate();
        return new InsertNode(table, input, new PlanEstimate(estimate.startupCost(),
                estimate.totalCost() + translator.cost().cpuOperatorCost() * estimate.rows(), 1, 8));
    }
}
