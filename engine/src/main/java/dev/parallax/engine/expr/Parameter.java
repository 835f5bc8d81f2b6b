package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

/** Prepared-statement parameter {@code $index+1}; bound per execution through the execution context. */
public record Parameter(int index, DataType type) implements Expr {
}
