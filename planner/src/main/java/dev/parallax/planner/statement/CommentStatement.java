package dev.parallax.planner.statement;

/**
 * {@code COMMENT ON TABLE | VIEW | SEQUENCE | INDEX name IS 'text' | NULL} and {@code COMMENT ON
 * COLUMN relation.column IS ...}: {@code columnName} is null but for COLUMN, {@code text} null for
 * {@code IS NULL} (the comment is removed).
 */
public record CommentStatement(Kind kind, RelationName relationName, String columnName, String text) implements Statement {
    /** What the comment is on. */
    public enum Kind {
        TABLE, VIEW, SEQUENCE, INDEX, COLUMN
    }
}
