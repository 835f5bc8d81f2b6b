package dev.parallax.engine.operator.join;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.CorrelateNode;
import dev.parallax.engine.vector.Batch;

/** Instantiates a {@link CorrelateNode}: its outer input now, its inner plan once per outer row. */
public final class CorrelateOperatorFactory {
    private CorrelateOperatorFactory() {
    }

    public static Operator create(CorrelateNode node, OperatorBuilder builder) {
        Operator outer = builder.build(node.outer());
        try {
            return new CorrelateOperator(node, builder, outer, Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY));
        } catch (RuntimeException failure) {
            outer.close();
            throw failure;
        }
    }
}
