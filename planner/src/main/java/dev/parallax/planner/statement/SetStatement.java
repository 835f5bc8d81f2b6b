package dev.parallax.planner.statement;

/**
 * {@code SET [SESSION | LOCAL] name {= | TO} value | DEFAULT}. {@code value} is null for DEFAULT;
 * a list value ({@code SET search_path = a, b}) is joined with ", " as PostgreSQL stores it.
 */
public record SetStatement(String name, String value, boolean local) implements Statement {
}
