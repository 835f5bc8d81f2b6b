package dev.parallax.planner.query.translate;

import dev.parallax.planner.query.schema.EngineTable;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.PlanNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.TableScan;

/** Filter → FilterNode. */
final class FilterTranslator {
    private FilterTranslator() {
    }

    static PlanNode translate(Filter filter, RelTranslator translator) {
        PlanNode input;
        Expr condition;
        if (filter.getInput() instanceof TableScan scan) {
            // A filter straight over a scan keeps every column: the rows flow on to the parent.
            input = translator.translate(scan);
            condition = translator.rex().translate(filter.getCondition());
            FilterNode seqScanPlan = new FilterNode(input, condition, translator.cost().filter(input.estimate(), condition, input.outputTypes()));
            return IndexPaths.filteredScan(scan.getTable().unwrapOrThrow(EngineTable.class).table(), condition, seqScanPlan, translator.cost());
        } else {
            input = translator.translate(filter.getInput());
            condition = translator.rex().translate(filter.getCondition());
        }
        return new FilterNode(input, condition, translator.cost().filter(input.estimate(), condition, input.outputTypes()));
    }
}
