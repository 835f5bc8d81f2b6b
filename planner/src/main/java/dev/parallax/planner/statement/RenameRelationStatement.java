package dev.parallax.planner.statement;

/**
 * {@code ALTER TABLE [IF EXISTS] name RENAME TO newName}, or {@code ALTER VIEW ...} ({@code view}):
 * ALTER TABLE renames a table or a view, ALTER VIEW only a view, as in PostgreSQL.
 */
public record RenameRelationStatement(RelationName name, boolean ifExists, String newName, boolean view) implements Statement {
}
