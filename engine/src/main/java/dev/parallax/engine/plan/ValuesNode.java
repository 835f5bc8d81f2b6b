package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.List;

/** Literal rows ({@code VALUES (...), (...)}, or one empty row for a SELECT without FROM); expressions may not reference columns. */
public record ValuesNode(List<List<Expr>> rows, List<DataType> outputTypes, PlanEstimate estimate) implements PlanNode {
    public ValuesNode {
        rows = rows.stream().map(List::copyOf).toList();
        outputTypes = List.copyOf(outputTypes);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }
}
