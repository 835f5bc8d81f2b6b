package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ColumnDefinition;

import java.util.List;

/** {@code CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL | NULL], ...)}. */
public record CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns) implements Statement {
    public CreateTableStatement {
        columns = List.copyOf(columns);
    }
}
