package dev.parallax.engine.operator.sort;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.SortNode;

/** Instantiates a {@link SortNode}. */
public final class SortOperatorFactory {
    private SortOperatorFactory() {
    }

    public static Operator create(SortNode node, OperatorBuilder builder) {
        return new SortOperator(builder.context(), builder.build(node.input()), node.outputTypes(), node.keys(), node.limit());
    }
}
