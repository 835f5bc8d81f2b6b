package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

/** The value of input column {@code index} of the operator evaluating the expression. */
public record ColumnRef(int index, DataType type) implements Expr {
}
