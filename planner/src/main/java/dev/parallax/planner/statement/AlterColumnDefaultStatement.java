package dev.parallax.planner.statement;

/**
 * {@code ALTER TABLE [ONLY] name ALTER [COLUMN] column SET DEFAULT expression | DROP DEFAULT}.
 * {@code expressionText} is the expression as written, or null for DROP DEFAULT; without
 * {@code only}, a partitioned table's partitions change too, as in PostgreSQL.
 */
public record AlterColumnDefaultStatement(String tableName, boolean only, String columnName, String expressionText)
        implements Statement {
}
