package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's ProjectSet: set-returning functions of a select list. Each input row gives as many
 * output rows as its longest function yields (none when every function yields none); the
 * functions run in lockstep, a shorter one giving NULL once it has run out. The output is the
 * input row's columns, then one column per function.
 */
public record ProjectSetNode(PlanNode input, List<SetReturningFunction> functions, PlanEstimate estimate) implements PlanNode {
    public ProjectSetNode {
        functions = List.copyOf(functions);
        if (functions.isEmpty()) {
            throw new IllegalArgumentException("a ProjectSet needs a set-returning function");
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> types = new ArrayList<>(input.outputTypes());
        for (SetReturningFunction function : functions) {
            types.add(function.type());
        }
        return types;
    }
}
