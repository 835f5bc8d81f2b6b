package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

/** Converts {@code input} to {@code type} with PostgreSQL's rules (rounding, range checks, text parsing). */
public record Cast(Expr input, DataType type) implements Expr {
}
