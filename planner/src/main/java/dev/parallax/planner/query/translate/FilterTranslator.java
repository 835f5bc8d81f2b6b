package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.PlanNode;
import org.apache.calcite.rel.core.Filter;

/** Filter → FilterNode. */
final class FilterTranslator {
    private FilterTranslator() {
    }

    static PlanNode translate(Filter filter, RelTranslator translator) {
        PlanNode input = translator.translate(filter.getInput());
        Expr condition = translator.rex().translate(filter.getCondition());
        return new FilterNode(input, condition, translator.cost().filter(input.estimate(), condition, input.outputTypes()));
    }
}
