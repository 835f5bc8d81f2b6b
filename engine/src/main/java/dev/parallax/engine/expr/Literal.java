package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

/**
 * A constant, held in the engine's representation of its type (see TypeKind): {@code Long} for
 * LONG-vector kinds, {@code Double} for DOUBLE kinds, {@code byte[]} for BYTES kinds; {@code null}
 * for SQL NULL.
 */
public record Literal(Object value, DataType type) implements Expr {
    public static Literal ofLong(long value, DataType type) {
        return new Literal(value, type);
    }

    public static Literal nullOf(DataType type) {
        return new Literal(null, type);
    }

    public boolean isNull() {
        return value == null;
    }
}
