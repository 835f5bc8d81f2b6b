package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;

import java.util.Objects;

/**
 * One end of an index scan's range on the index's leading key column: {@code value} (a
 * {@link Literal} or a {@link Parameter} of the key column's type, so its engine representation
 * compares directly with the stored keys) and whether keys equal to it are inside the range.
 */
public record IndexBound(Expr value, boolean inclusive) {
    public IndexBound {
        Objects.requireNonNull(value, "value");
        if (!(value instanceof Literal) && !(value instanceof Parameter)) {
            throw new IllegalArgumentException("an index bound is a literal or a parameter: " + value);
        }
    }
}
