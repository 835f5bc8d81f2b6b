package dev.parallax.engine.operator.unnest;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.plan.UnnestNode;
import dev.parallax.engine.vector.Batch;

/** Instantiates an {@link UnnestNode} with its array expression compiled for this participant. */
public final class UnnestOperatorFactory {
    private UnnestOperatorFactory() {
    }

    public static Operator create(UnnestNode node, OperatorBuilder builder) {
        Operator input = builder.build(node.input());
        try {
            return new UnnestOperator(builder.context(), input, ExpressionCompiler.compile(node.array(), builder.context()),
                    node.keepInput(), node.withOrdinality(), node.outer(),
                    Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY));
        } catch (RuntimeException failure) {
            input.close();
            throw failure;
        }
    }
}
