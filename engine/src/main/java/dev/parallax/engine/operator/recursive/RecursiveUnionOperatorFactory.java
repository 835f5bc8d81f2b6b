package dev.parallax.engine.operator.recursive;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.operator.aggregate.DistinctRows;
import dev.parallax.engine.plan.RecursiveUnionNode;

/**
 * Instantiates a {@link RecursiveUnionNode}: its work table, registered with the builder for the
 * recursive term's {@link dev.parallax.engine.plan.WorkTableScanNode}s, and the non-recursive
 * term's operator; the recursive term's operators are built per run.
 */
public final class RecursiveUnionOperatorFactory {
    private RecursiveUnionOperatorFactory() {
    }

    public static Operator create(RecursiveUnionNode node, OperatorBuilder builder) {
        WorkTable workTable = new WorkTable(builder.context().memory());
        builder.registerWorkTable(node.workTable(), workTable);
        DistinctRows seen = node.distinct() ? new DistinctRows(node.outputTypes(), builder.context().memory()) : null;
        try {
            Operator nonRecursive = builder.build(node.nonRecursive());
            return new RecursiveUnionOperator(node, builder, workTable, seen, nonRecursive);
        } catch (RuntimeException failure) {
            if (seen != null) {
                seen.close();
            }
            throw failure;
        }
    }
}
