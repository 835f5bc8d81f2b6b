package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.List;

/** Skips {@code offset} rows then passes at most {@code limit} rows; either may be null (absent). Both are BIGINT expressions (literals or parameters). */
public record LimitNode(PlanNode input, Expr offset, Expr limit, PlanEstimate estimate) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return input.outputTypes();
    }
}
