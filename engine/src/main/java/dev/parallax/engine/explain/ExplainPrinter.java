package dev.parallax.engine.explain;

import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.GroupingSetsExpandNode;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.IndexBound;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.UniqueIndexScanNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.sort.SortStatistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Prints a physical plan in PostgreSQL's EXPLAIN text format, one string per line. As in
 * PostgreSQL, filters and projections are not nodes of their own: a Filter prints as the
 * {@code Filter:} line of the node below it, a projection as that node's {@code Output:}.
 * Under ANALYZE, rows and times are per loop and loops count the participants that ran the node;
 * VERBOSE adds {@code Output:} lines and one {@code Worker N:} line per worker. A Sort under ANALYZE
 * prints its {@code Sort Method:} line for the leader and one per worker (in the worker's block
 * under VERBOSE, as {@code Worker N:  Sort Method: ...} otherwise). The caller appends
 * {@link #timingLine} lines for Planning Time and Execution Time.
 */
public final class ExplainPrinter {
    private final ExplainOptions options;
    private final ExecutionStatistics statistics;
    private final ExplainLabels labels;
    private final List<String> lines = new ArrayList<>();

    private ExplainPrinter(ExplainOptions options, ExecutionStatistics statistics, ExplainLabels labels) {
        this.options = options;
        this.statistics = statistics;
        this.labels = labels;
    }

    /**
     * The EXPLAIN lines of {@code root}. {@code statistics} is required when {@code options.analyze()}
     * (from the execution that ran {@code root}); without ANALYZE only its pruned inputs are used
     * ({@link InitialPruning}), and it may be null. {@code labels} may be {@link ExplainLabels#NONE}.
     */
    public static List<String> print(PlanNode root, ExplainOptions options, ExecutionStatistics statistics, ExplainLabels labels) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        if (options.analyze()) {
            Objects.requireNonNull(statistics, "statistics are required for EXPLAIN ANALYZE");
        }
        ExplainPrinter printer = new ExplainPrinter(options, statistics, labels == null ? ExplainLabels.NONE : labels);
        printer.node(root, 0);
        return List.copyOf(printer.lines);
    }

    /** A footer line such as {@code Planning Time: 0.123 ms}. */
    public static String timingLine(String label, double milliseconds) {
        return String.format(Locale.ROOT, "%s: %.3f ms", label, milliseconds);
    }

    private void node(PlanNode top, int depth) {
        if (top instanceof GroupingSetsExpandNode expand) {
            // The aggregate above prints the sets as its key lines; the expansion has no PostgreSQL node.
            node(expand.input(), depth);
            return;
        }
        // Filters and projections fold into the node they sit on, as PostgreSQL plans them.
        PlanNode shown = top;
        List<FilterNode> filters = new ArrayList<>();
        while (shown instanceof FilterNode || shown instanceof ProjectNode) {
            if (shown instanceof FilterNode filter) {
                filters.add(filter);
            }
            shown = shown.inputs().getFirst();
        }
        String prefix = depth == 0 ? "" : " ".repeat(6 * (depth - 1) + 2) + "->  ";
        String propertyIndent = " ".repeat(depth == 0 ? 2 : 6 * depth + 2);
        StringBuilder header = new StringBuilder(prefix).append(name(shown));
        if (options.costs()) {
            PlanEstimate estimate = top.estimate();
            header.append(String.format(Locale.ROOT, "  (cost=%.2f..%.2f rows=%.0f width=%d)",
                    estimate.startupCost(), estimate.totalCost(), estimate.rows(), estimate.width()));
        }
        NodeStatistics nodeStatistics = options.analyze() ? statistics.node(top) : null;
        if (nodeStatistics != null) {
            int loops = nodeStatistics.loops();
            if (loops == 0) {
                header.append(" (never executed)");
            } else {
                header.append(' ').append(actual(nodeStatistics.firstNanos(), nodeStatistics.totalNanos(), nodeStatistics.rows(), loops));
            }
        }
        lines.add(header.toString());
        if (options.verbose()) {
            List<String> outputs = outputTexts(top);
            if (!outputs.isEmpty()) {
                lines.add(propertyIndent + "Output: " + String.join(", ", outputs));
            }
        }
        properties(shown, propertyIndent);
        for (int index = filters.size() - 1; index >= 0; index--) {
            FilterNode filter = filters.get(index);
            String condition = labels.condition(filter);
            if (condition == null) {
                condition = ExpressionText.format(filter.condition(), columnNames(filter.input(), options.verbose()));
            }
            lines.add(propertyIndent + "Filter: " + condition);
            if (options.analyze()) {
                NodeStatistics below = statistics.node(filter.input());
                NodeStatistics kept = statistics.node(filter);
                int loops = Math.max(1, kept.loops());
                lines.add(propertyIndent + String.format(Locale.ROOT, "Rows Removed by Filter: %.0f",
                        (double) (below.rows() - kept.rows()) / loops));
            }
        }
        if (nodeStatistics != null && shown instanceof AggregateNode) {
            // The aggregate's own statistics: a projection folded above it (GROUPING's) records no hash table.
            NodeStatistics aggregateStatistics = statistics.node(shown);
            hashAggregateSpace(aggregateStatistics != null ? aggregateStatistics : nodeStatistics, propertyIndent);
        }
        if (nodeStatistics != null && options.verbose()) {
            for (ParticipantStatistics worker : nodeStatistics.workers()) {
                String measured = actual(worker.firstNanos(), worker.totalNanos(), worker.rows(), worker.loops());
                // The worker line is the parenthesized text without its parentheses.
                lines.add(propertyIndent + "Worker " + worker.participant() + ":  " + measured.substring(1, measured.length() - 1));
                SortStatistics sort = worker.sort();
                if (sort != null) {
                    lines.add(propertyIndent + "  " + sort.explainLine());
                }
                if (shown instanceof AggregateNode && worker.hashSpace() != null) {
                    lines.add(propertyIndent + "  " + worker.hashSpace());
                }
            }
        }
        if (shown instanceof HashJoinNode join) {
            // PostgreSQL's shape: the probe (outer) input, then a Hash node over the build input.
            node(join.probe(), depth + 1);
            hashNode(join, depth + 1);
            return;
        }
        // The Append's own statistics: a projection folded above it (top) has none of its pruning.
        // Pruned inputs come from EXPLAIN ANALYZE's run or, without ANALYZE, from InitialPruning.
        boolean[] pruned = shown instanceof PartitionAppendNode && statistics != null ? statistics.node(shown).prunedInputs() : null;
        List<PlanNode> inputs = shown.inputs();
        for (int index = 0; index < inputs.size(); index++) {
            if (pruned == null || !pruned[index]) {
                node(inputs.get(index), depth + 1);
            }
        }
    }

    /** The Hash (or Parallel Hash) node PostgreSQL shows above a hash join's build input; it costs what its input does. */
    private void hashNode(HashJoinNode join, int depth) {
        PlanNode build = join.build();
        StringBuilder header = new StringBuilder(" ".repeat(6 * (depth - 1) + 2)).append("->  ")
                .append(join.parallelBuild() ? "Parallel Hash" : "Hash");
        if (options.costs()) {
            PlanEstimate estimate = build.estimate();
            header.append(String.format(Locale.ROOT, "  (cost=%.2f..%.2f rows=%.0f width=%d)",
                    estimate.totalCost(), estimate.totalCost(), estimate.rows(), estimate.width()));
        }
        NodeStatistics buildStatistics = options.analyze() ? statistics.node(build) : null;
        if (buildStatistics != null) {
            int loops = buildStatistics.loops();
            header.append(loops == 0 ? " (never executed)"
                    : " " + actual(buildStatistics.totalNanos(), buildStatistics.totalNanos(), buildStatistics.rows(), loops));
        }
        lines.add(header.toString());
        if (options.verbose()) {
            lines.add(" ".repeat(6 * depth + 2) + "Output: " + String.join(", ", outputTexts(build)));
        }
        if (buildStatistics != null) {
            // PostgreSQL shows one build's line: the leader's, else the first worker's that built one.
            String space = null;
            for (ParticipantStatistics participant : statistics.node(join).participants()) {
                if (participant.hashSpace() != null && (space == null || participant.participant() < 0)) {
                    space = participant.hashSpace();
                }
            }
            if (space != null) {
                lines.add(" ".repeat(6 * depth + 2) + space);
            }
        }
        node(build, depth + 1);
    }

    private static String joinTypeName(JoinType joinType) {
        return switch (joinType) {
            case INNER -> "Join";
            case LEFT -> "Left Join";
            case RIGHT -> "Right Join";
            case FULL -> "Full Join";
            case SEMI -> "Semi Join";
            case ANTI -> "Anti Join";
        };
    }

    /** Names of a join's joined row: its probe (outer) input's columns, then its build (inner) input's, table-qualified. */
    private List<String> joinedNames(PlanNode probe, PlanNode build) {
        List<String> names = new ArrayList<>(columnNames(probe, true));
        names.addAll(columnNames(build, true));
        return names;
    }

    private static List<String> pick(List<String> names, int[] columns) {
        List<String> picked = new ArrayList<>(columns.length);
        for (int column : columns) {
            picked.add(names.get(column));
        }
        return picked;
    }

    private String actual(long firstNanos, long totalNanos, long rows, int loops) {
        if (options.timing()) {
            return String.format(Locale.ROOT, "(actual time=%.3f..%.3f rows=%.0f loops=%d)",
                    firstNanos / 1e6 / loops, totalNanos / 1e6 / loops, (double) rows / loops, loops);
        }
        return String.format(Locale.ROOT, "(actual rows=%.0f loops=%d)", (double) rows / loops, loops);
    }

    private String name(PlanNode node) {
        return switch (node) {
            case SeqScanNode scan -> (scan.parallel() ? "Parallel Seq Scan on " : "Seq Scan on ")
                    + (options.verbose() ? "public." : "") + scan.table().name();
            case AggregateNode aggregate -> {
                // PostgreSQL 15 names a hashed grouping-sets aggregation with the () set (hashing cannot run it) MixedAggregate.
                String strategy = aggregate.groupingSets() != null
                        ? aggregate.groupingSets().emptySetOrdinal() >= 0 ? "MixedAggregate" : "HashAggregate"
                        : aggregate.groupKeys().length == 0 ? "Aggregate" : "HashAggregate";
                yield switch (aggregate.mode()) {
                    case SINGLE -> strategy;
                    case PARTIAL -> "Partial " + strategy;
                    case FINAL -> "Finalize " + strategy;
                };
            }
            case GatherNode gather -> "Gather";
            case GatherMergeNode gatherMerge -> "Gather Merge";
            case SortNode sort -> "Sort";
            case LimitNode limit -> "Limit";
            case dev.parallax.engine.plan.WindowNode window -> "WindowAgg";
            case ValuesNode values -> values.rows().size() == 1 ? "Result" : "Values Scan on \"*VALUES*\"";
            case GenerateSeriesNode series -> "Function Scan on " + (options.verbose() ? "pg_catalog." : "") + "generate_series";
            case dev.parallax.engine.plan.UnnestNode unnest -> "Function Scan on " + (options.verbose() ? "pg_catalog." : "") + "unnest";
            case dev.parallax.engine.plan.ProjectSetNode projectSet -> "ProjectSet";
            case InsertNode insert -> "Insert on " + (options.verbose() ? "public." : "") + insert.table().name();
            case ModifyTableNode modify -> switch (modify.operation()) {
                case INSERT -> "Insert on ";
                case UPDATE -> "Update on ";
                case DELETE -> "Delete on ";
            } + (options.verbose() ? "public." : "") + modify.table().name();
            case AppendNode append -> "Append";
            case PartitionAppendNode append -> append.inputs().isEmpty() ? "Result" : append.parallel() ? "Parallel Append" : "Append";
            case UniqueIndexScanNode lookup -> "Index Scan using " + lookup.constraint().name() + " on "
                    + (options.verbose() ? "public." : "") + lookup.table().name();
            case IndexScanNode indexScan -> (indexScan.backward() ? "Index Scan Backward using " : "Index Scan using ") + indexScan.index().name() + " on "
                    + (options.verbose() ? "public." : "") + indexScan.table().name();
            case HashJoinNode join -> (join.parallelBuild() ? "Parallel Hash " : "Hash ") + joinTypeName(join.joinType());
            case NestedLoopJoinNode join -> join.joinType() == JoinType.INNER ? "Nested Loop" : "Nested Loop " + joinTypeName(join.joinType());
            case dev.parallax.engine.plan.CorrelateNode correlate ->
                    correlate.joinType() == JoinType.INNER ? "Nested Loop" : "Nested Loop " + joinTypeName(correlate.joinType());
            case FilterNode filter -> name(filter.input());
            case ProjectNode project -> name(project.input());
            case GroupingSetsExpandNode expand -> name(expand.input());
            case dev.parallax.engine.plan.RecursiveUnionNode recursiveUnion -> "Recursive Union";
            case dev.parallax.engine.plan.WorkTableScanNode workTableScan -> "WorkTable Scan on " + workTableScan.name();
        };
    }

    /**
     * The index a statement on {@code table} uses through {@code constraint}. On a partitioned table
     * the plan carries one partition's constraint standing for the parent's over the same columns
     * (the partition is only known per row, or once execution prunes): PostgreSQL names the
     * parent's index there ({@code Conflict Arbiter Indexes: p_pkey}), not a partition's.
     */
    private static String indexName(Table table, UniqueConstraint constraint) {
        if (!table.isPartitioned()) {
            return constraint.name();
        }
        List<String> keyNames = new ArrayList<>();
        for (int column : constraint.keyColumns()) {
            keyNames.add(table.columns().get(column).name());
        }
        for (PartitionedConstraint declared : table.partitionedConstraints()) {
            if (declared.columnNames().equals(keyNames)) {
                return declared.name();
            }
        }
        return constraint.name();
    }

    /**
     * The index of an UPDATE/DELETE point lookup: when planning kept one partition (a constant key),
     * that partition's own index, as PostgreSQL's Index Scan on the partition names it; else the
     * parent's (the partition is only known once the key is).
     */
    private static String lookupIndexName(ModifyTableNode modify) {
        UniqueConstraint constraint = modify.lookup().constraint();
        if (modify.table().isPartitioned() && modify.input() instanceof PartitionAppendNode append
                && append.inputs().size() == 1) {
            Table partition = append.router().partition(append.inputOrdinals()[0]);
            for (UniqueConstraint own : partition.uniqueConstraints()) {
                if (java.util.Arrays.equals(own.keyColumns(), constraint.keyColumns())) {
                    return own.name();
                }
            }
        }
        return indexName(modify.table(), constraint);
    }

    private void properties(PlanNode node, String indent) {
        switch (node) {
            case AggregateNode aggregate when aggregate.groupingSets() != null -> {
                // One line per set, as PostgreSQL's MixedAggregate: Hash Key: a, b / Hash Key: a / Group Key: ().
                List<String> inputNames = columnNames(aggregate.input(), options.verbose());
                int[] groupKeys = aggregate.groupKeys();
                for (int[] set : aggregate.groupingSets().sets()) {
                    if (set.length == 0) {
                        lines.add(indent + "Group Key: ()");
                        continue;
                    }
                    List<String> keys = new ArrayList<>();
                    for (int key : set) {
                        keys.add(inputNames.get(groupKeys[key]));
                    }
                    lines.add(indent + "Hash Key: " + String.join(", ", keys));
                }
            }
            case AggregateNode aggregate -> {
                if (aggregate.groupKeys().length > 0) {
                    List<String> inputNames = columnNames(aggregate.input(), options.verbose());
                    List<String> keys = new ArrayList<>();
                    for (int key : aggregate.groupKeys()) {
                        keys.add(inputNames.get(key));
                    }
                    lines.add(indent + "Group Key: " + String.join(", ", keys));
                }
            }
            case GatherNode gather -> {
                workerCounts(gather, gather.workersPlanned(), indent);
                if (gather.singleCopy()) {
                    lines.add(indent + "Single Copy: true");
                }
            }
            case GatherMergeNode gatherMerge -> workerCounts(gatherMerge, gatherMerge.workersPlanned(), indent);
            case ModifyTableNode modify -> {
                if (modify.onConflict() != null) {
                    lines.add(indent + "Conflict Resolution: " + modify.onConflict().action().name());
                    List<String> arbiters = new ArrayList<>();
                    for (UniqueConstraint arbiter : modify.onConflict().arbiters()) {
                        arbiters.add(indexName(modify.table(), arbiter));
                    }
                    lines.add(indent + "Conflict Arbiter Indexes: " + String.join(", ", arbiters));
                    if (modify.onConflict().condition() != null) {
                        // DO UPDATE ... WHERE reads the existing row, then the proposed one (excluded).
                        List<String> names = new ArrayList<>();
                        for (var column : modify.table().columns()) {
                            names.add(modify.table().name() + "." + column.name());
                        }
                        for (var column : modify.table().columns()) {
                            names.add("excluded." + column.name());
                        }
                        lines.add(indent + "Conflict Filter: " + ExpressionText.format(modify.onConflict().condition(), names));
                    }
                }
                if (modify.lookup() != null) {
                    lines.add(indent + "Index Lookup: " + lookupIndexName(modify));
                }
            }
            case HashJoinNode join -> {
                // PostgreSQL qualifies join conditions with table names and puts the outer side first.
                List<String> probeNames = columnNames(join.probe(), true);
                List<String> buildNames = columnNames(join.build(), true);
                int[] probeKeys = join.probeKeys();
                int[] buildKeys = join.buildKeys();
                List<String> comparisons = new ArrayList<>();
                for (int key = 0; key < probeKeys.length; key++) {
                    comparisons.add("(" + probeNames.get(probeKeys[key]) + " = " + buildNames.get(buildKeys[key]) + ")");
                }
                lines.add(indent + "Hash Cond: " + (comparisons.size() == 1 ? comparisons.getFirst() : "(" + String.join(" AND ", comparisons) + ")"));
                if (join.residual() != null) {
                    lines.add(indent + "Join Filter: " + ExpressionText.format(join.residual(), joinedNames(join.probe(), join.build())));
                }
            }
            case NestedLoopJoinNode join -> {
                if (join.condition() != null) {
                    lines.add(indent + "Join Filter: " + ExpressionText.format(join.condition(), joinedNames(join.outer(), join.inner())));
                }
            }
            case IndexScanNode indexScan -> {
                String condition = indexCondition(indexScan);
                if (condition != null) {
                    lines.add(indent + "Index Cond: " + condition);
                }
            }
            case UniqueIndexScanNode lookup -> lines.add(indent + "Index Cond: " + lookupCondition(lookup));
            case PartitionAppendNode append -> {
                if (append.inputs().isEmpty()) {
                    lines.add(indent + "One-Time Filter: false");
                }
                boolean[] pruned = statistics != null ? statistics.node(append).prunedInputs() : null;
                if (pruned != null) {
                    int removed = 0;
                    for (boolean input : pruned) {
                        removed += input ? 1 : 0;
                    }
                    lines.add(indent + "Subplans Removed: " + removed);
                }
            }
            case SortNode sort -> {
                List<String> inputNames = columnNames(sort.input(), options.verbose());
                List<String> keys = new ArrayList<>();
                for (SortKey key : sort.keys()) {
                    StringBuilder text = new StringBuilder(inputNames.get(key.column()));
                    if (key.descending()) {
                        text.append(" DESC");
                    }
                    // PostgreSQL prints NULLS FIRST/LAST only when it differs from the direction's default.
                    if (key.nullsFirst() != key.descending()) {
                        text.append(key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
                    }
                    keys.add(text.toString());
                }
                lines.add(indent + "Sort Key: " + String.join(", ", keys));
                if (options.analyze()) {
                    sortMethods(sort, indent);
                }
            }
            default -> {
            }
        }
    }

    private void workerCounts(PlanNode gather, int workersPlanned, String indent) {
        lines.add(indent + "Workers Planned: " + workersPlanned);
        if (options.analyze()) {
            int launched = statistics.node(gather).workersLaunched();
            lines.add(indent + "Workers Launched: " + Math.max(0, launched));
        }
    }

    /**
     * PostgreSQL's show_hashagg_info: the leader's {@code Batches: … Memory Usage: …} line, then
     * each worker's as {@code Worker N:  …} (inside the worker blocks under VERBOSE instead).
     */
    private void hashAggregateSpace(NodeStatistics aggregate, String indent) {
        for (ParticipantStatistics participant : aggregate.participants()) {
            String space = participant.hashSpace();
            if (space == null) {
                continue;
            }
            if (participant.participant() < 0) {
                lines.add(indent + space);
            } else if (!options.verbose()) {
                lines.add(indent + "Worker " + participant.participant() + ":  " + space);
            }
        }
    }

    /**
     * PostgreSQL's show_sort_info: the leader's sort first, then each worker's; under VERBOSE the
     * workers' lines go into their {@code Worker N:} blocks instead (printed with the actual rows).
     */
    private void sortMethods(SortNode sort, String indent) {
        for (ParticipantStatistics participant : statistics.node(sort).participants()) {
            SortStatistics sorted = participant.sort();
            if (sorted == null) {
                continue;
            }
            if (participant.participant() < 0) {
                lines.add(indent + sorted.explainLine());
            } else if (!options.verbose()) {
                lines.add(indent + "Worker " + participant.participant() + ":  " + sorted.explainLine());
            }
        }
    }

    /** Texts of the Output line: one per column, except one per aggregate call for a Partial Aggregate. */
    private List<String> outputTexts(PlanNode node) {
        List<String> labelled = labels.output(node);
        if (labelled != null) {
            return labelled;
        }
        if (node instanceof AggregateNode aggregate && aggregate.mode() == AggregateMode.PARTIAL) {
            List<String> texts = new ArrayList<>();
            List<String> inputNames = columnNames(aggregate.input(), true);
            for (int key : aggregate.groupKeys()) {
                texts.add(inputNames.get(key));
            }
            for (AggregateCall call : aggregate.calls()) {
                texts.add("PARTIAL " + call.name());
            }
            return texts;
        }
        if (node instanceof InsertNode || node instanceof ModifyTableNode modify && modify.returning().isEmpty()) {
            return List.of();
        }
        return columnNames(node, true);
    }

    /**
     * PostgreSQL's Index Cond text: {@code (a = 5)} for an equality, else one comparison per bound,
     * ANDed ({@code ((a >= 10) AND (a < 20))}); null for a scan without bounds (ORDER BY).
     */
    private String indexCondition(IndexScanNode scan) {
        String key = scan.table().columns().get(scan.leadingKeyColumn()).name();
        if (options.verbose()) {
            key = scan.table().name() + "." + key;
        }
        IndexBound lower = scan.lower();
        IndexBound upper = scan.upper();
        List<String> noColumns = List.of();
        if (lower != null && upper != null && lower.inclusive() && upper.inclusive() && lower.value().equals(upper.value())) {
            return "(" + key + " = " + ExpressionText.format(lower.value(), noColumns) + ")";
        }
        List<String> comparisons = new ArrayList<>(2);
        if (lower != null) {
            comparisons.add("(" + key + (lower.inclusive() ? " >= " : " > ") + ExpressionText.format(lower.value(), noColumns) + ")");
        }
        if (upper != null) {
            comparisons.add("(" + key + (upper.inclusive() ? " <= " : " < ") + ExpressionText.format(upper.value(), noColumns) + ")");
        }
        if (comparisons.isEmpty()) {
            return null;
        }
        return comparisons.size() == 1 ? comparisons.getFirst() : "(" + String.join(" AND ", comparisons) + ")";
    }

    /** {@code (id = 5)}, or {@code ((a = 1) AND (b = 'x'::text))} for a key of several columns. */
    private String lookupCondition(UniqueIndexScanNode lookup) {
        int[] keyColumns = lookup.constraint().keyColumns();
        List<String> comparisons = new ArrayList<>();
        for (int key = 0; key < keyColumns.length; key++) {
            String column = lookup.table().columns().get(keyColumns[key]).name();
            if (options.verbose()) {
                column = lookup.table().name() + "." + column;
            }
            comparisons.add("(" + column + " = " + ExpressionText.format(lookup.keyValues().get(key), List.of()) + ")");
        }
        return comparisons.size() == 1 ? comparisons.getFirst() : "(" + String.join(" AND ", comparisons) + ")";
    }

    /** The names a parent uses for {@code node}'s output columns (qualified with the table under VERBOSE). */
    private List<String> columnNames(PlanNode node, boolean qualified) {
        List<String> labelled = labels.output(node);
        if (labelled != null) {
            return labelled;
        }
        return switch (node) {
            case SeqScanNode scan -> {
                List<String> names = new ArrayList<>();
                for (int column : scan.columns()) {
                    String name = switch (column) {
                        case SeqScanNode.ROW_ID -> "ctid";
                        case SeqScanNode.PARTITION_ORDINAL -> "tableoid";
                        default -> scan.table().columns().get(column).name();
                    };
                    names.add(qualified ? scan.table().name() + "." + name : name);
                }
                yield names;
            }
            case ProjectNode project -> {
                List<String> inputNames = columnNames(project.input(), qualified);
                yield project.expressions().stream().map(expression -> ExpressionText.format(expression, inputNames)).toList();
            }
            case AggregateNode aggregate -> {
                List<String> inputNames = columnNames(aggregate.input(), qualified);
                List<String> names = new ArrayList<>();
                for (int key : aggregate.groupKeys()) {
                    names.add(inputNames.get(key));
                }
                for (AggregateCall call : aggregate.calls()) {
                    int columns = aggregate.mode() == AggregateMode.PARTIAL ? call.stateTypes().size() : 1;
                    for (int column = 0; column < columns; column++) {
                        names.add(call.name());
                    }
                }
                yield names;
            }
            case ValuesNode values -> {
                List<String> names = new ArrayList<>();
                for (int column = 1; column <= values.outputTypes().size(); column++) {
                    names.add("\"*VALUES*\".column" + column);
                }
                yield names;
            }
            case GenerateSeriesNode series -> List.of("generate_series");
            case dev.parallax.engine.plan.ProjectSetNode projectSet -> {
                List<String> inputNames = columnNames(projectSet.input(), qualified);
                List<String> names = new ArrayList<>(inputNames);
                for (dev.parallax.engine.plan.SetReturningFunction function : projectSet.functions()) {
                    List<dev.parallax.engine.expr.Expr> arguments = switch (function) {
                        case dev.parallax.engine.plan.SetReturningFunction.Series series ->
                                List.of(series.start(), series.stop(), series.step());
                        case dev.parallax.engine.plan.SetReturningFunction.Unnest unnest -> List.of(unnest.array());
                    };
                    names.add(function.name() + "(" + String.join(", ", arguments.stream()
                            .map(argument -> ExpressionText.format(argument, inputNames)).toList()) + ")");
                }
                yield names;
            }
            case dev.parallax.engine.plan.UnnestNode unnest -> {
                List<String> names = new ArrayList<>(unnest.keepInput() ? columnNames(unnest.input(), qualified) : List.of());
                names.add("unnest");
                if (unnest.withOrdinality()) {
                    names.add("ordinality");
                }
                yield names;
            }
            case InsertNode insert -> List.of("count");
            case ModifyTableNode modify -> {
                if (modify.returning().isEmpty()) {
                    yield List.of("count");
                }
                List<String> tableNames = new ArrayList<>();
                for (var column : modify.table().columns()) {
                    tableNames.add(qualified ? modify.table().name() + "." + column.name() : column.name());
                }
                if (modify.readsTargetRowsFromInput()) {
                    // RETURNING reads the input row (the FROM row): the target's columns, then the others'.
                    List<String> inputNames = columnNames(modify.input(), qualified);
                    tableNames.addAll(inputNames.subList(tableNames.size(), inputNames.size()));
                }
                yield modify.returning().stream().map(expression -> ExpressionText.format(expression, tableNames)).toList();
            }
            case FilterNode filter -> columnNames(filter.input(), qualified);
            case GroupingSetsExpandNode expand -> {
                List<String> inputNames = columnNames(expand.input(), qualified);
                List<String> names = new ArrayList<>(inputNames);
                for (int key : expand.keyColumns()) {
                    names.add(inputNames.get(key));
                }
                names.add("(grouping set)");
                yield names;
            }
            case dev.parallax.engine.plan.RecursiveUnionNode recursiveUnion -> columnNames(recursiveUnion.nonRecursive(), qualified);
            case dev.parallax.engine.plan.WorkTableScanNode workTableScan -> qualified
                    ? workTableScan.columnNames().stream().map(column -> workTableScan.name() + "." + column).toList()
                    : workTableScan.columnNames();
            case GatherNode gather -> columnNames(gather.input(), qualified);
            case GatherMergeNode gatherMerge -> columnNames(gatherMerge.input(), qualified);
            case SortNode sort -> columnNames(sort.input(), qualified);
            case LimitNode limit -> columnNames(limit.input(), qualified);
            case dev.parallax.engine.plan.WindowNode window -> {
                List<String> inputNames = columnNames(window.input(), qualified);
                List<String> names = new ArrayList<>(inputNames);
                for (dev.parallax.engine.plan.WindowCall call : window.calls()) {
                    dev.parallax.engine.plan.AggregateCall aggregate = call.aggregate();
                    String function = aggregate == null ? call.function().name().toLowerCase(java.util.Locale.ROOT) + "("
                            + String.join(", ", java.util.Arrays.stream(call.arguments()).mapToObj(inputNames::get).toList()) + ")"
                            : aggregate.function() == dev.parallax.engine.plan.AggregateFunction.COUNT_STAR ? "count(*)"
                            : aggregate.function().name().toLowerCase(java.util.Locale.ROOT) + "(" + inputNames.get(aggregate.argument()) + ")";
                    // PostgreSQL 15 prints the window of a WindowAgg's output as OVER (?).
                    names.add(function + " OVER (?)");
                }
                yield names;
            }
            case IndexScanNode indexScan -> {
                List<String> names = new ArrayList<>();
                for (int column : indexScan.columns()) {
                    String name = indexScan.table().columns().get(column).name();
                    names.add(qualified ? indexScan.table().name() + "." + name : name);
                }
                yield names;
            }
            case HashJoinNode join -> pick(joinedNames(join.probe(), join.build()), join.outputColumns());
            case NestedLoopJoinNode join -> pick(joinedNames(join.outer(), join.inner()), join.outputColumns());
            case dev.parallax.engine.plan.CorrelateNode correlate -> correlate.joinType().emitsPairs()
                    ? joinedNames(correlate.outer(), correlate.inner()) : columnNames(correlate.outer(), qualified);
            // PostgreSQL names an Append's columns after its first input's.
            case AppendNode append -> columnNames(append.inputs().getFirst(), qualified);
            case PartitionAppendNode append -> {
                if (!append.inputs().isEmpty()) {
                    yield columnNames(append.inputs().getFirst(), qualified);
                }
                List<String> names = new ArrayList<>();
                for (int column = 1; column <= append.outputTypes().size(); column++) {
                    names.add("column" + column);
                }
                yield names;
            }
            case UniqueIndexScanNode lookup -> {
                List<String> names = new ArrayList<>();
                for (int column : lookup.columns()) {
                    String name = lookup.table().columns().get(column).name();
                    names.add(qualified ? lookup.table().name() + "." + name : name);
                }
                yield names;
            }
        };
    }
}
