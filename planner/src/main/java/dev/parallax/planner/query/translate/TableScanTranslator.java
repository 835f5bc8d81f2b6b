package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.core.TableScan;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * TableScan → SeqScanNode over the given columns (serial; ParallelPlanner may make it parallel), or
 * for a partitioned table an Append over its partitions ({@link PartitionScans}).
 */
final class TableScanTranslator {
    private TableScanTranslator() {
    }

    static PlanNode translate(TableScan scan, RelTranslator translator) {
        Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
        // The Calcite table's fields: the table's columns, and a modify target's hidden ones after them.
        return scanOf(table, IntStream.range(0, scan.getRowType().getFieldCount()).toArray(), translator);
    }

    /**
     * A scan of only the columns {@code nodes} use, with {@code nodes} rewritten to read the pruned
     * row: the trimmer leaves expressions straight over a full-width scan, and a scan should read
     * only the columns the query needs.
     */
    static PrunedScan pruned(TableScan scan, List<RexNode> nodes, RelTranslator translator) {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(nodes, null);
        int[] columns = used.toArray();
        Map<Integer, Integer> targets = new HashMap<>();
        for (int index = 0; index < columns.length; index++) {
            targets.put(columns[index], index);
        }
        Mappings.TargetMapping mapping = Mappings.target(targets, scan.getRowType().getFieldCount(), columns.length);
        RexPermuteInputsShuttle shuttle = new RexPermuteInputsShuttle(mapping);
        List<RexNode> rewritten = nodes.stream().map(node -> node.accept(shuttle)).toList();
        Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
        return new PrunedScan(scanOf(table, columns, translator), rewritten);
    }

    record PrunedScan(PlanNode scan, List<RexNode> nodes) {
    }

    /**
     * A Seq Scan of {@code columns}; for a partitioned table an Append of one per partition. Columns
     * past the table's are the hidden ones of a {@link dev.parallax.planner.query.schema.ModifyTargetTable}
     * (no other Calcite table has any): the row id and partition ordinal pseudo-columns.
     */
    static PlanNode scanOf(Table table, int[] tableColumns, RelTranslator translator) {
        int[] columns = tableColumns;
        int width = table.columns().size();
        for (int index = 0; index < columns.length; index++) {
            if (columns[index] >= width) {
                if (columns == tableColumns) {
                    columns = tableColumns.clone();
                }
                columns[index] = columns[index] == width ? SeqScanNode.ROW_ID : SeqScanNode.PARTITION_ORDINAL;
            }
        }
        if (table.isPartitioned()) {
            return PartitionScans.unpruned(table, columns, translator);
        }
        var types = IntStream.of(columns).mapToObj(index -> SeqScanNode.columnType(table, index)).toList();
        return new SeqScanNode(table, columns, false,
                translator.cost().scan(table.storage().sizeBytes(), table.storage().rowCount(), types, 1));
    }
}
