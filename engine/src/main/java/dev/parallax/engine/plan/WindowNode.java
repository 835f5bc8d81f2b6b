package dev.parallax.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.parallax.engine.type.DataType;

/**
 * Window functions over one window ({@code OVER (PARTITION BY ... ORDER BY ... frame)}): the input
 * arrives sorted by the partition columns then the order columns, and each row leaves with its
 * input columns followed by one column per call ({@link WindowCall#resultType()}). {@code frame}
 * is what the aggregate calls see; the ranking functions ignore it. PostgreSQL's WindowAgg.
 */
public record WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, List<WindowCall> calls,
                         PlanEstimate estimate) implements PlanNode {
    public WindowNode {
        partitionColumns = partitionColumns.clone();
        orderColumns = orderColumns.clone();
        Objects.requireNonNull(frame, "frame");
        calls = List.copyOf(calls);
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
        for (WindowCall call : calls) {
            types.add(call.resultType());
        }
        return types;
    }
}
