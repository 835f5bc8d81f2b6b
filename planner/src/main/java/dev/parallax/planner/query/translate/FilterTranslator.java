package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.planner.query.cost.ColumnStatisticsLookup;
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
        } else {
            input = translator.translate(filter.getInput());
            condition = translator.rex().translate(filter.getCondition());
        }
        if (PartitionScans.isUnpruned(input)) {
            // Prune with the condition, then push it into every partition that remains.
            return PartitionScans.filtered((PartitionAppendNode) input, condition, translator);
        }
        FilterNode seqScanPlan = new FilterNode(input, condition,
                translator.cost().filter(input.estimate(), condition, input.outputTypes(), statistics(input)));
        if (input instanceof SeqScanNode scan && !scan.parallel()) {
            // Straight over a table (or the column list the trimmer left under the filter): an index may answer it.
            PlanNode best = IndexPaths.filteredScan(scan, condition, seqScanPlan, translator.cost());
            return UniqueIndexPaths.pointLookup(scan, condition, best, translator.cost());
        }
        return seqScanPlan;
    }

    /** ANALYZE's statistics of a scanned table's columns, by the scan's output column; none for other inputs. */
    private static ColumnStatisticsLookup statistics(PlanNode input) {
        if (input instanceof SeqScanNode scan && scan.table().statistics() != null) {
            TableStatistics statistics = scan.table().statistics();
            int[] columns = scan.columns();
            return index -> index < columns.length && columns[index] >= 0 ? statistics.column(columns[index]) : null;
        }
        return ColumnStatisticsLookup.NONE;
    }
}
