package dev.parallax.planner.statement;

/**
 * {@code ALTER TABLE [IF EXISTS] [ONLY] name RENAME [COLUMN] column TO newName}: a partitioned
 * table's column is renamed in its partitions too (ONLY is then an error, as in PostgreSQL).
 */
public record RenameColumnStatement(RelationName tableName, boolean ifExists, boolean only, String columnName, String newName)
        implements Statement {
}
