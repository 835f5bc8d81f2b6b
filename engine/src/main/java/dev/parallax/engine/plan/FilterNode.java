package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.List;

/** Keeps the rows for which {@code condition} is TRUE (not FALSE, not NULL). */
public record FilterNode(PlanNode input, Expr condition, PlanEstimate estimate) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return input.outputTypes();
    }
}
