package dev.parallax.engine.operator.append;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Instantiates a {@link PartitionAppendNode}: first the execution-time pruning step, with this
 * execution's parameter values, so that removed partitions never get an operator; then the
 * Append over the remaining inputs.
 */
public final class PartitionAppendOperatorFactory {
    private PartitionAppendOperatorFactory() {
    }

    public static Operator create(PartitionAppendNode node, OperatorBuilder builder) {
        List<PlanNode> kept = node.inputs();
        if (node.runtimePruning() != null) {
            boolean[] survivors = node.runtimePruning().survivors(node.router(), builder.context());
            int[] ordinals = node.inputOrdinals();
            boolean[] removed = new boolean[ordinals.length];
            kept = new ArrayList<>();
            for (int input = 0; input < ordinals.length; input++) {
                if (survivors[ordinals[input]]) {
                    kept.add(node.inputs().get(input));
                } else {
                    removed[input] = true;
                }
            }
            NodeStatistics statistics = builder.statistics(node);
            if (statistics != null) {
                statistics.setPrunedInputs(removed);
            }
        }
        // The leader is participant -1: participants start at inputs 0, 1, 2, ...
        int start = node.parallel() ? builder.participant() + 1 : 0;
        return new PartitionAppendOperator(kept, start, builder);
    }
}
