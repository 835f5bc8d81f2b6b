package dev.parallax.planner.query;

import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.plan.ValuesNode;

import java.util.Arrays;

/** An EXPLAIN-like outline of a plan, without costs, for exact shape assertions. */
final class PlanDump {
    private PlanDump() {
    }

    static String dump(PlanNode root) {
        StringBuilder text = new StringBuilder();
        dump(root, 0, text);
        return text.toString();
    }

    private static void dump(PlanNode node, int depth, StringBuilder text) {
        text.append("  ".repeat(depth)).append(switch (node) {
            case SeqScanNode scan -> (scan.parallel() ? "Parallel Seq Scan on " : "Seq Scan on ") + scan.table().name()
                    + " " + Arrays.toString(scan.columns());
            case FilterNode filter -> "Filter";
            case ProjectNode project -> "Project " + project.expressions().size();
            case AggregateNode aggregate -> switch (aggregate.mode()) {
                case SINGLE -> "Aggregate";
                case PARTIAL -> "Partial Aggregate";
                case FINAL -> "Finalize Aggregate";
            } + " keys=" + Arrays.toString(aggregate.groupKeys()) + " calls=" + aggregate.calls().size();
            case GatherNode gather -> "Gather workers=" + gather.workersPlanned() + (gather.singleCopy() ? " single" : "");
            case GatherMergeNode gatherMerge -> "Gather Merge workers=" + gatherMerge.workersPlanned() + " keys=" + gatherMerge.keys().size();
            case SortNode sort -> "Sort " + sort.keys().size() + (sort.limit() >= 0 ? " top " + sort.limit() : "");
            case LimitNode limit -> "Limit";
            case ValuesNode values -> "Values " + values.rows().size();
            case GenerateSeriesNode series -> "Function Scan on generate_series";
            case dev.parallax.engine.plan.UnnestNode unnest -> "Function Scan on unnest" + (unnest.keepInput() ? " lateral" : "");
            case dev.parallax.engine.plan.ProjectSetNode projectSet -> "ProjectSet";
            case dev.parallax.engine.plan.RecursiveUnionNode recursiveUnion -> "Recursive Union" + (recursiveUnion.distinct() ? " distinct" : "");
            case dev.parallax.engine.plan.WorkTableScanNode workTableScan -> "WorkTable Scan on " + workTableScan.name();
            case InsertNode insert -> "Insert on " + insert.table().name();
            case dev.parallax.engine.plan.AppendNode append -> "Append " + append.inputs().size();
            case dev.parallax.engine.plan.IndexScanNode indexScan -> "Index Scan using " + indexScan.index().name() + " on "
                    + indexScan.table().name() + " " + Arrays.toString(indexScan.columns());
            case dev.parallax.engine.plan.PartitionAppendNode append -> (append.parallel() ? "Parallel Append " : "Append ")
                    + append.inputs().size() + (append.runtimePruning() != null ? " runtime pruning" : "");
            case dev.parallax.engine.plan.UniqueIndexScanNode lookup -> "Index Scan using " + lookup.constraint().name() + " on "
                    + lookup.table().name() + " " + Arrays.toString(lookup.columns());
            case dev.parallax.engine.plan.ModifyTableNode modify -> modify.operation() + " on " + modify.table().name()
                    + (modify.lookup() == null ? "" : " lookup " + modify.lookup().constraint().name());
            case dev.parallax.engine.plan.HashJoinNode join -> (join.parallelBuild() ? "Parallel Hash Join " : "Hash Join ")
                    + join.joinType() + " probe=" + Arrays.toString(join.probeKeys()) + " build=" + Arrays.toString(join.buildKeys())
                    + (join.residual() != null ? " residual" : "");
            case dev.parallax.engine.plan.NestedLoopJoinNode join -> "Nested Loop " + join.joinType()
                    + (join.condition() != null ? " condition" : "");
            case dev.parallax.engine.plan.WindowNode window -> "WindowAgg " + window.frame() + " " + window.calls().stream()
                    .map(call -> call.aggregate() == null ? call.function().name() : call.aggregate().function().name()).toList();
            case dev.parallax.engine.plan.CorrelateNode correlate -> "Correlated Nested Loop " + correlate.joinType()
                    + " correlated=" + Arrays.toString(correlate.correlatedColumns());
            case dev.parallax.engine.plan.GroupingSetsExpandNode expand -> "Grouping Sets Expand keys="
                    + Arrays.toString(expand.keyColumns()) + " sets=" + expand.sets().sets().size();
        }).append('\n');
        for (PlanNode input : node.inputs()) {
            dump(input, depth + 1, text);
        }
    }
}
