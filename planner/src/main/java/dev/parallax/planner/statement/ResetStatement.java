package dev.parallax.planner.statement;

/** {@code RESET name} or {@code RESET ALL} ({@link #all()}; name is then null). */
public record ResetStatement(String name, boolean all) implements Statement {
}
