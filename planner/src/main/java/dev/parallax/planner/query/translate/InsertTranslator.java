package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Cast;
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
 * TableModify(INSERT) → InsertNode. Calcite's converter orders the source as the table's columns
 * with NULL for omitted ones, and its type coercion wraps source columns in casts to the column
 * types. Those casts have explicit-cast semantics (a too-long varchar is cut), while PostgreSQL
 * applies assignment conversion to INSERT (22001, 22026): so the top-level casts to exactly the
 * column type are removed here and the engine's insert operator converts with assignment rules
 * and checks NOT NULL. (A cast the user wrote to exactly the column's type is removed too; it then
 * raises where PostgreSQL would truncate: a rare case, accepted for now.)
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
        PlanNode input = withoutCoercionCasts(translator.translate(modify.getInput()), table.columnTypes());
        PlanEstimate estimate = input.estimate();
        return new InsertNode(table, input, new PlanEstimate(estimate.startupCost(),
                estimate.totalCost() + translator.cost().cpuOperatorCost() * estimate.rows(), 1, 8));
    }

    private static PlanNode withoutCoercionCasts(PlanNode input, List<DataType> columnTypes) {
        if (!(input instanceof ProjectNode project)) {
            return input;
        }
        List<Expr> expressions = new ArrayList<>(project.expressions().size());
        boolean changed = false;
        for (int index = 0; index < project.expressions().size(); index++) {
            Expr expression = project.expressions().get(index);
            if (expression instanceof Cast cast && cast.type().equals(columnTypes.get(index))) {
                expressions.add(cast.input());
                changed = true;
            } else {
                expressions.add(expression);
            }
        }
        return changed ? new ProjectNode(project.input(), expressions, project.estimate()) : input;
    }
}
