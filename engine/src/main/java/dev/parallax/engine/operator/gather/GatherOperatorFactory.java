package dev.parallax.engine.operator.gather;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.GatherNode;

/** Instantiates a {@link GatherNode}; its input is instantiated per participant when the Gather starts. */
public final class GatherOperatorFactory {
    private GatherOperatorFactory() {
    }

    public static Operator create(GatherNode node, OperatorBuilder builder) {
        return new GatherOperator(node, builder);
    }
}
