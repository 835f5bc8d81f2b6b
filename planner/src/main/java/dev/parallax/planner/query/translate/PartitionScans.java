package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.partition.PartitionKey;
import dev.parallax.engine.partition.PartitionPruning;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Scans of a partitioned table. Calcite sees the parent as one table; the partitions appear only
 * here, after pruning, so planning a query that keeps one partition costs the same whatever the
 * number of partitions (apart from one hash per key value). A filter over the scan is pushed into
 * each kept partition, where an index may answer it.
 *
 * <p>Pruning follows PostgreSQL: equality, IN-list and {@code = ANY (array)} conditions on every
 * partition key column (or {@code IS NULL}) keep only the partitions of the matching key tuples. With literals the
 * others are never planned; with parameters every partition is planned and the Append prunes when
 * execution starts. A single remaining partition replaces the Append (PostgreSQL 12+); none left
 * is an empty Append ({@code Result / One-Time Filter: false}). {@code enable_partition_pruning = off}
 * turns both kinds off.
 */
public final class PartitionScans {
    private PartitionScans() {
    }

    /** An Append of a Seq Scan of {@code columns} per partition of {@code parent}. */
    static PartitionAppendNode unpruned(Table parent, int[] columns, RelTranslator translator) {
        return unpruned(parent, columns, translator.cost());
    }

    /**
     * The rows an UPDATE or DELETE of partitioned {@code parent} reads: an Append over the
     * partitions that {@code condition} (over the table's columns, or null) can match, pruned as a
     * query's scan is (with parameters, at execution start), each a Filter over a Seq Scan of every
     * column. Always an Append, also for one partition or none: the modifying operator reads its
     * partitions from it.
     */
    public static PartitionAppendNode modifyInput(Table parent, Expr condition, CostModel cost) {
        int[] columns = IntStream.range(0, parent.columns().size()).toArray();
        PartitionAppendNode append = unpruned(parent, columns, cost);
        if (condition == null || append.inputs().isEmpty()) {
            return append;
        }
        PartitionRouter router = append.router();
        List<DataType> types = append.outputTypes();
        if (condition instanceof Literal literal && (literal.isNull() || Long.valueOf(0).equals(literal.value()))) {
            return new PartitionAppendNode(parent, router, List.of(), new int[0], types, null, false,
                    new PlanEstimate(0, 0, 0, cost.width(types)));
        }
        PartitionPruning pruning = cost.partitionPruningEnabled() ? pruningOf(append, condition) : null;
        boolean[] survivors = pruning == null || pruning.hasParameters() ? null : pruning.survivors(router, null);
        List<PlanNode> inputs = new ArrayList<>();
        List<Integer> ordinals = new ArrayList<>();
        for (int ordinal = 0; ordinal < router.partitionCount(); ordinal++) {
            if (survivors != null && !survivors[ordinal]) {
                continue;
            }
            PlanNode scan = append.inputs().get(ordinal);
            inputs.add(new FilterNode(scan, condition, cost.filter(scan.estimate(), condition, types)));
            ordinals.add(ordinal);
        }
        return new PartitionAppendNode(parent, router, inputs, ordinals.stream().mapToInt(Integer::intValue).toArray(), types,
                pruning != null && pruning.hasParameters() ? pruning : null, false, sum(inputs, types, cost));
    }

    private static PartitionAppendNode unpruned(Table parent, int[] columns, CostModel cost) {
        PartitionRouter router = parent.partitionRouter();
        List<DataType> types = IntStream.of(columns).mapToObj(index -> SeqScanNode.columnType(parent, index)).toList();
        List<PlanNode> inputs = new ArrayList<>(router.partitionCount());
        int[] ordinals = new int[router.partitionCount()];
        for (int ordinal = 0; ordinal < router.partitionCount(); ordinal++) {
            Table partition = router.partition(ordinal);
            inputs.add(new SeqScanNode(partition, columns, false,
                    cost.scan(partition.storage().sizeBytes(), partition.storage().rowCount(), types, 1)));
            ordinals[ordinal] = ordinal;
        }
        return new PartitionAppendNode(parent, router, inputs, ordinals, types, null, false, sum(inputs, types, cost));
    }

    /** {@code condition} (over the Append's columns) applied to the partitions it can match. */
    static PlanNode filtered(PartitionAppendNode append, Expr condition, RelTranslator translator) {
        CostModel cost = translator.cost();
        if (append.inputs().isEmpty()) {
            return append;
        }
        PartitionRouter router = append.router();
        List<DataType> types = append.outputTypes();
        if (condition instanceof Literal literal && (literal.isNull() || Long.valueOf(0).equals(literal.value()))) {
            // A condition folded to false or NULL keeps no row: PostgreSQL's "One-Time Filter: false".
            return new PartitionAppendNode(append.parent(), router, List.of(), new int[0], types, null, false,
                    new PlanEstimate(0, 0, 0, cost.width(types)));
        }
        PartitionPruning pruning = cost.partitionPruningEnabled() ? pruningOf(append, condition) : null;
        boolean[] survivors = null;
        PartitionPruning runtimePruning = null;
        if (pruning != null && pruning.hasParameters()) {
            runtimePruning = pruning;
        } else if (pruning != null) {
            survivors = pruning.survivors(router, null);
        }
        List<PlanNode> inputs = new ArrayList<>();
        List<Integer> ordinals = new ArrayList<>();
        int[] appendOrdinals = append.inputOrdinals();
        for (int input = 0; input < appendOrdinals.length; input++) {
            if (survivors != null && !survivors[appendOrdinals[input]]) {
                continue;
            }
            SeqScanNode scan = (SeqScanNode) append.inputs().get(input);
            FilterNode filter = new FilterNode(scan, condition, cost.filter(scan.estimate(), condition, scan.outputTypes()));
            PlanNode best = IndexPaths.filteredScan(scan, condition, filter, cost);
            inputs.add(UniqueIndexPaths.pointLookup(scan, condition, best, cost));
            ordinals.add(appendOrdinals[input]);
        }
        if (inputs.size() == 1 && runtimePruning == null) {
            return inputs.getFirst();
        }
        return new PartitionAppendNode(append.parent(), router, inputs, ordinals.stream().mapToInt(Integer::intValue).toArray(),
                types, runtimePruning, false, sum(inputs, types, cost));
    }

    /** Whether {@code node} is an Append straight over the partitions' serial Seq Scans (nothing pushed into it yet). */
    static boolean isUnpruned(PlanNode node) {
        return node instanceof PartitionAppendNode append && !append.parallel() && append.runtimePruning() == null
                && append.inputs().stream().allMatch(input -> input instanceof SeqScanNode scan && !scan.parallel())
                && append.inputs().size() == append.router().partitionCount();
    }

    /** The pruning step {@code condition} allows, or null when it does not fix every partition key column. */
    private static PartitionPruning pruningOf(PartitionAppendNode append, Expr condition) {
        Table parent = append.parent();
        PartitionKey key = parent.partitionKey();
        int[] scanColumns = ((SeqScanNode) append.inputs().getFirst()).columns();
        List<Expr> conjuncts = KeyComparisons.conjuncts(condition);
        List<PartitionPruning.KeyValues> keys = new ArrayList<>();
        for (int keyColumn : key.columns()) {
            int position = -1;
            for (int index = 0; index < scanColumns.length; index++) {
                if (scanColumns[index] == keyColumn) {
                    position = index;
                }
            }
            if (position < 0) {
                return null;
            }
            DataType type = parent.columns().get(keyColumn).type();
            PartitionPruning.KeyValues found = null;
            for (Expr conjunct : conjuncts) {
                if (KeyComparisons.isNullTest(conjunct, position)) {
                    found = new PartitionPruning.KeyValues(type, List.of(), true);
                    break;
                }
                List<Expr> values = KeyComparisons.equalValues(conjunct, position, type);
                if (values != null) {
                    found = new PartitionPruning.KeyValues(type, values, false);
                    break;
                }
                Expr array = KeyComparisons.equalAnyArray(conjunct, position, type);
                if (array != null) {
                    found = new PartitionPruning.KeyValues(type, List.of(array), false);
                    break;
                }
            }
            if (found == null) {
                return null;
            }
            keys.add(found);
        }
        PartitionPruning pruning = new PartitionPruning(keys);
        return pruning.isUsable() ? pruning : null;
    }

    private static PlanEstimate sum(List<PlanNode> inputs, List<DataType> types, CostModel cost) {
        double startup = inputs.isEmpty() ? 0 : inputs.getFirst().estimate().startupCost();
        double total = 0;
        double rows = 0;
        for (PlanNode input : inputs) {
            total += input.estimate().totalCost();
            rows += input.estimate().rows();
        }
        return new PlanEstimate(startup, total, Math.max(1, rows), cost.width(types));
    }
}
