package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * Reads table columns {@code columns} (output column i = table column columns[i]). When
 * {@code parallel}, it is a Parallel Seq Scan: all participants of the enclosing Gather share one
 * {@link dev.parallax.engine.storage.ScanCursor} and each claims chunks of pages from it.
 */
public record SeqScanNode(Table table, int[] columns, boolean parallel, PlanEstimate estimate) implements PlanNode {
    public SeqScanNode {
        columns = columns.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public List<DataType> outputTypes() {
        return Arrays.stream(columns).mapToObj(index -> table.columns().get(index).type()).toList();
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }
}
