package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * The rows of every input, input after input (PostgreSQL's Append: UNION ALL, and the input of a
 * UNION's duplicate elimination). All inputs produce the same column types; the planner casts an
 * input whose types differ before it gets here.
 */
public record AppendNode(List<PlanNode> inputs, PlanEstimate estimate) implements PlanNode {
    public AppendNode {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("an Append needs at least one input");
        }
        List<DataType> types = inputs.getFirst().outputTypes();
        for (PlanNode input : inputs) {
            if (!input.outputTypes().equals(types)) {
                throw new IllegalArgumentException("Append inputs differ in types: " + types + " and " + input.outputTypes());
            }
        }
    }

    @Override
    public List<DataType> outputTypes() {
        return inputs.getFirst().outputTypes();
    }
}
