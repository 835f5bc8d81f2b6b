package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * {@code generate_series(start, stop[, step])} (one output column of {@code type}): over integers,
 * or over timestamps with a step of an interval type (months or microseconds).
 */
public record GenerateSeriesNode(Expr start, Expr stop, Expr step, DataType type, PlanEstimate estimate) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public List<DataType> outputTypes() {
        return List.of(type);
    }
}
