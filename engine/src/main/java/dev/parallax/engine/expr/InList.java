package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * {@code value [NOT] IN (values...)} with SQL's three-valued result: NULL when no element matches
 * and the value or some element is NULL. Elements have the value's type.
 */
public record InList(Expr value, List<Expr> values, boolean negated) implements Expr {
    public InList {
        values = List.copyOf(values);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }
}
