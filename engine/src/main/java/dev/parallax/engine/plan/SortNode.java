package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/** Orders all input rows by {@code keys}; {@code limit} >= 0 lets it keep only the first rows (top-N). */
public record SortNode(PlanNode input, List<SortKey> keys, long limit, PlanEstimate estimate) implements PlanNode {
    public SortNode {
        keys = List.copyOf(keys);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return input.outputTypes();
    }
}
