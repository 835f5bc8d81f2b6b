package dev.parallax.engine.operator.window;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.WindowNode;

/** Instantiates a {@link WindowNode}. */
public final class WindowOperatorFactory {
    private WindowOperatorFactory() {
    }

    public static Operator create(WindowNode node, OperatorBuilder builder) {
        return new WindowOperator(builder.build(node.input()), node.partitionColumns(), node.orderColumns(), node.frame(), node.calls());
    }
}
