package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.plan.WindowFunction;
import dev.parallax.engine.plan.WindowNode;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * Window → one WindowNode per window ({@code OVER (...)} clause), each over a SortNode ordering
 * its input by the partition keys then the order keys. Every WindowNode appends its functions'
 * columns after its input's, so the column numbers of later windows stay those of the input, and
 * the output matches Calcite's (input fields, then each group's calls in order). Only the ranking
 * functions (row_number, rank, dense_rank) are computed; aggregates over windows are not yet.
 */
final class WindowTranslator {
    private WindowTranslator() {
    }

    static PlanNode translate(Window window, RelTranslator translator) {
        PlanNode node = translator.translate(window.getInput());
        for (Window.Group group : window.groups) {
            List<WindowFunction> functions = new ArrayList<>();
            for (Window.RexWinAggCall call : group.aggCalls) {
                functions.add(switch (call.getOperator().getKind()) {
                    case ROW_NUMBER -> WindowFunction.ROW_NUMBER;
                    case RANK -> WindowFunction.RANK;
                    case DENSE_RANK -> WindowFunction.DENSE_RANK;
                    default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "window function %s is not supported yet", call.getOperator().getName().toLowerCase(java.util.Locale.ROOT));
                });
            }
            int[] partitionColumns = group.keys.toArray();
            List<SortKey> keys = new ArrayList<>();
            for (int column : partitionColumns) {
                keys.add(new SortKey(column, false, false));
            }
            List<RelFieldCollation> collations = group.orderKeys.getFieldCollations();
            int[] orderColumns = new int[collations.size()];
            for (int index = 0; index < orderColumns.length; index++) {
                RelFieldCollation collation = collations.get(index);
                boolean descending = collation.getDirection().isDescending();
                boolean nullsFirst = switch (collation.nullDirection) {
                    case FIRST -> true;
                    case LAST -> false;
                    // PostgreSQL: NULLs sort as larger than any value.
                    case UNSPECIFIED -> descending;
                };
                orderColumns[index] = collation.getFieldIndex();
                keys.add(new SortKey(collation.getFieldIndex(), descending, nullsFirst));
            }
            PlanNode input = node;
            if (!keys.isEmpty()) {
                input = new SortNode(node, keys, -1, translator.cost().sort(node.estimate(), node.estimate().rows(), -1));
            }
            PlanEstimate sorted = input.estimate();
            // One comparison per key and one counter update per row, as PostgreSQL charges cpu_operator_cost per row.
            double cost = sorted.rows() * 0.0025 * (keys.size() + functions.size());
            node = new WindowNode(input, partitionColumns, orderColumns, functions,
                    new PlanEstimate(sorted.startupCost(), sorted.totalCost() + cost, sorted.rows(), sorted.width() + 8 * functions.size()));
        }
        return node;
    }
}
