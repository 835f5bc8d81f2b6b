package dev.parallax.engine.operator.filter;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.plan.FilterNode;

/** Instantiates a {@link FilterNode} with a predicate compiled for this participant. */
public final class FilterOperatorFactory {
    private FilterOperatorFactory() {
    }

    public static Operator create(FilterNode node, OperatorBuilder builder) {
        Operator input = builder.build(node.input());
        try {
            Predicate predicate = ExpressionCompiler.compilePredicate(node.condition(), builder.context());
            return new FilterOperator(input, predicate);
        } catch (RuntimeException failure) {
            input.close();
            throw failure;
        }
    }
}
