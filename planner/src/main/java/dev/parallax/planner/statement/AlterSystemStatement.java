package dev.parallax.planner.statement;

/**
 * {@code ALTER SYSTEM SET name {= | TO} value | DEFAULT}, {@code ALTER SYSTEM RESET name} and
 * {@code ALTER SYSTEM RESET ALL}: a database-wide setting. {@code name} is null for RESET ALL;
 * {@code value} is null for RESET and DEFAULT (back to the built-in default).
 */
public record AlterSystemStatement(String name, String value) implements Statement {
}
