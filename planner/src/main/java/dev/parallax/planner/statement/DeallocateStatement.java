package dev.parallax.planner.statement;

/** {@code DEALLOCATE [PREPARE] name | ALL}: {@code name} folded like an identifier, null for ALL. */
public record DeallocateStatement(String name) implements Statement {
    public boolean all() {
        return name == null;
    }
}
