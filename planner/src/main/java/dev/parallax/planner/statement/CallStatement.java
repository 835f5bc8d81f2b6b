package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code CALL procedure(argument, ...)}; arguments are constants, positional or named
 * ({@code name => value}, {@code name := value}).
 */
public record CallStatement(String procedure, List<CallArgument> arguments, int position) implements Statement {
    public CallStatement {
        arguments = List.copyOf(arguments);
    }

    /** One argument: its name (null when positional), its constant text, and whether it was a string literal. */
    public record CallArgument(String name, String value, boolean string) {
    }
}
