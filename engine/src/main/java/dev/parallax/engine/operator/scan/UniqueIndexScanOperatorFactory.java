package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.plan.UniqueIndexScanNode;

/** Instantiates a {@link UniqueIndexScanNode}, resolving its key values (literals, or parameters bound for this execution). */
public final class UniqueIndexScanOperatorFactory {
    private UniqueIndexScanOperatorFactory() {
    }

    public static Operator create(UniqueIndexScanNode node, OperatorBuilder builder) {
        Object[] values = new Object[node.keyValues().size()];
        for (int key = 0; key < values.length; key++) {
            Expr value = node.keyValues().get(key);
            values[key] = switch (value) {
                case Literal literal -> literal.value();
                case Parameter parameter -> builder.context().parameter(parameter.index());
                default -> throw new IllegalStateException("a point lookup key is a literal or a parameter");
            };
        }
        return new UniqueIndexScanOperator(new UniqueIndexLookup(node.table(), node.constraint(), node.columns()), values);
    }
}
