package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

import java.util.List;

/** A call of a built-in {@link Function} on arguments; {@code type} is the result type. */
public record Call(Function function, List<Expr> arguments, DataType type) implements Expr {
    public Call {
        arguments = List.copyOf(arguments);
    }

    public Call(Function function, DataType type, Expr... arguments) {
        this(function, List.of(arguments), type);
    }
}
