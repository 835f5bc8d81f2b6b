package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.GroupingSetsExpandNode;

/** Instantiates a {@link GroupingSetsExpandNode} for this participant. */
public final class GroupingSetsExpandOperatorFactory {
    private GroupingSetsExpandOperatorFactory() {
    }

    public static Operator create(GroupingSetsExpandNode node, OperatorBuilder builder) {
        return new GroupingSetsExpandOperator(builder.build(node.input()), node.input().outputTypes(), node.keyColumns(),
                node.sets().sets());
    }
}
