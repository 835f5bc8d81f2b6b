package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * Ranking window functions over one window ({@code OVER (PARTITION BY ... ORDER BY ...)}): the
 * input arrives sorted by the partition columns then the order columns, and each row leaves with
 * its input columns followed by one bigint per function. PostgreSQL's WindowAgg.
 */
public record WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, List<WindowFunction> functions,
                         PlanEstimate estimate) implements PlanNode {
    public WindowNode {
        partitionColumns = partitionColumns.clone();
        orderColumns = orderColumns.clone();
        functions = List.copyOf(functions);
    }

    @Override
    public int[] partitionColumns() {
        return partitionColumns.clone();
    }

    @Override
    public int[] orderColumns() {
        return orderColumns.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> types = new ArrayList<>(input.outputTypes());
        for (int index = 0; index < functions.size(); index++) {
            types.add(DataType.BIGINT);
        }
        return types;
    }
}
