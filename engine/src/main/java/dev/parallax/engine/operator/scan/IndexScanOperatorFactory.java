package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.plan.IndexBound;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.vector.Batch;

/** Instantiates an {@link IndexScanNode}, resolving its bounds (literals, or parameters bound for this execution). */
public final class IndexScanOperatorFactory {
    private IndexScanOperatorFactory() {
    }

    public static Operator create(IndexScanNode node, OperatorBuilder builder) {
        IndexBound lower = node.lower();
        IndexBound upper = node.upper();
        return new IndexScanOperator(builder.context(), node.index(), node.columns(),
                resolve(lower, builder), lower != null && lower.inclusive(),
                resolve(upper, builder), upper != null && upper.inclusive(), node.backward(),
                Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY));
    }

    private static Object resolve(IndexBound bound, OperatorBuilder builder) {
        if (bound == null) {
            return IndexScanOperator.OPEN;
        }
        return switch (bound.value()) {
            case Literal literal -> literal.value();
            case Parameter parameter -> builder.context().parameter(parameter.index());
            default -> throw new IllegalStateException("an index bound is a literal or a parameter");
        };
    }
}
