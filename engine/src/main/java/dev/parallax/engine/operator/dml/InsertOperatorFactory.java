package dev.parallax.engine.operator.dml;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.InsertNode;

/** Instantiates an {@link InsertNode}. */
public final class InsertOperatorFactory {
    private InsertOperatorFactory() {
    }

    public static Operator create(InsertNode node, OperatorBuilder builder) {
        if (ParallelInsertOperator.applies(node, builder)) {
            return new ParallelInsertOperator(node, builder);
        }
        return new InsertOperator(builder.build(node.input()), node.input().outputTypes(), node.table(), builder.context());
    }
}
