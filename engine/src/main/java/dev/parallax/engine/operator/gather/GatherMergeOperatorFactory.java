package dev.parallax.engine.operator.gather;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.GatherMergeNode;

/** Instantiates a {@link GatherMergeNode}; its input is instantiated per participant when the Gather Merge starts. */
public final class GatherMergeOperatorFactory {
    private GatherMergeOperatorFactory() {
    }

    public static Operator create(GatherMergeNode node, OperatorBuilder builder) {
        return new GatherMergeOperator(node, builder);
    }
}
