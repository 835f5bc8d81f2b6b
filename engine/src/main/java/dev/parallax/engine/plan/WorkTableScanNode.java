package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * The recursive reference to {@code name} inside the recursive term of the
 * {@link RecursiveUnionNode} whose {@code workTable} number it carries: the rows the previous run
 * of that term produced (the non-recursive term's rows in the first run), with the query's column names.
 */
public record WorkTableScanNode(int workTable, String name, List<String> columnNames, List<DataType> outputTypes,
                                PlanEstimate estimate) implements PlanNode {
    public WorkTableScanNode {
        columnNames = List.copyOf(columnNames);
        outputTypes = List.copyOf(outputTypes);
        if (columnNames.size() != outputTypes.size()) {
            throw new IllegalArgumentException("WorkTable Scan names " + columnNames + " for types " + outputTypes);
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }
}
