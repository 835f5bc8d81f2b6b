package dev.parallax.engine.operator.dml;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;

/**
 * Instantiates a {@link ModifyTableNode}. An INSERT's input runs as an operator; an UPDATE's or
 * DELETE's input only describes the scan, which the operator does itself to learn the row ids,
 * unless the input is a plan naming the target rows, which the operator builds for each attempt.
 */
public final class ModifyTableOperatorFactory {
    private ModifyTableOperatorFactory() {
    }

    public static Operator create(ModifyTableNode node, OperatorBuilder builder) {
        Operator input = node.operation() == ModifyOperation.INSERT ? builder.build(node.input()) : null;
        return new ModifyTableOperator(node, input, builder.context(), node.readsTargetRowsFromInput() ? builder : null);
    }
}
