package dev.parallax.planner.statement;

/** {@code SHOW name} or {@code SHOW ALL} ({@link #all()}). */
public record ShowStatement(String name, boolean all) implements Statement {
}
