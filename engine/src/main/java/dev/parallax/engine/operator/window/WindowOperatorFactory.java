package dev.parallax.engine.operator.window;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.WindowCall;
import dev.parallax.engine.plan.WindowNode;

/**
 * Instantiates a {@link WindowNode}: a {@link WindowOperator} for the ranking functions and the
 * aggregates, under a {@link PartitionWindowOperator} when calls need their whole partition (the
 * functions reading other rows, and aggregates over ROWS, RANGE and GROUPS frames).
 */
public final class WindowOperatorFactory {
    private WindowOperatorFactory() {
    }

    public static Operator create(WindowNode node, OperatorBuilder builder) {
        WindowOperator window = new WindowOperator(builder.build(node.input()), node.partitionColumns(), node.orderColumns(), node.frame(),
                node.calls());
        boolean needsPartition = false;
        for (WindowCall call : node.calls()) {
            needsPartition |= PartitionWindowOperator.computes(call, node.frame());
        }
        if (!needsPartition) {
            return window;
        }
        return new PartitionWindowOperator(window, !window.handsOverBatches(), node, node.input().outputTypes().size());
    }
}
