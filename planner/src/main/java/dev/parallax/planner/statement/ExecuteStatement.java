package dev.parallax.planner.statement;

import java.util.List;
import java.util.Objects;

/**
 * {@code EXECUTE name [(argument [, ...])]}: {@code name} folded like an identifier, and each
 * argument expression as written, with where it starts in the EXECUTE text.
 */
public record ExecuteStatement(String name, List<Argument> arguments) implements Statement {
    public ExecuteStatement {
        Objects.requireNonNull(name, "name");
        arguments = List.copyOf(arguments);
    }

    /** One argument expression: its text and its 0-based offset in the statement. */
    public record Argument(String text, int offset) {
    }
}
