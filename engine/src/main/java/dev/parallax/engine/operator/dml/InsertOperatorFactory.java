package dev.parallax.engine.operator.dml;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;

import java.util.List;

/** Instantiates an {@link InsertNode}. */
public final class InsertOperatorFactory {
    private InsertOperatorFactory() {
    }

    public static Operator create(InsertNode node, OperatorBuilder builder) {
        if (!node.table().foreignKeys().isEmpty()) {
            // Rows of a referencing table are checked against their parents before they are applied, all or nothing.
            ModifyTableNode modify = new ModifyTableNode(ModifyOperation.INSERT, node.table(), node.input(), null, List.of(), null,
                    List.of(), node.estimate());
            return new ModifyTableOperator(modify, builder.build(node.input()), builder.context());
        }
        if (ParallelInsertOperator.applies(node, builder)) {
            return new ParallelInsertOperator(node, builder);
        }
        return new InsertOperator(builder.build(node.input()), node.input().outputTypes(), node.table(), builder.context());
    }
}
