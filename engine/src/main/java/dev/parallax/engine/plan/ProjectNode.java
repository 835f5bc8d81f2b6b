package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.List;

/** Computes one output column per expression over the input's columns. */
public record ProjectNode(PlanNode input, List<Expr> expressions, PlanEstimate estimate) implements PlanNode {
    public ProjectNode {
        expressions = List.copyOf(expressions);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return expressions.stream().map(Expr::type).toList();
    }
}
