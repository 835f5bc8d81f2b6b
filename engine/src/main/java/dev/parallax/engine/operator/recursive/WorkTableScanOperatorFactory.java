package dev.parallax.engine.operator.recursive;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.WorkTableScanNode;

/** Instantiates a {@link WorkTableScanNode} over the work table its Recursive Union registered with the builder. */
public final class WorkTableScanOperatorFactory {
    private WorkTableScanOperatorFactory() {
    }

    public static Operator create(WorkTableScanNode node, OperatorBuilder builder) {
        WorkTable workTable = builder.workTable(node.workTable());
        if (workTable == null) {
            throw ParallaxException.of(SqlState.INTERNAL_ERROR, "WorkTable Scan on %s outside its Recursive Union", node.name());
        }
        return new WorkTableScanOperator(builder.context(), workTable);
    }
}
