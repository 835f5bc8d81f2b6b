package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ColumnDefinition;

import java.util.List;
import java.util.Map;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL | NULL | PRIMARY KEY | UNIQUE], ...,
 * [PRIMARY KEY (cols) | UNIQUE (cols)], ...) [PARTITION BY HASH (cols) [PARTITIONS n]] [WITH (parameter [= value], ...)]}. The
 * constraints are validated (columns exist, one primary key, redundant ones dropped, the partition
 * key included) and come primary key first; primary key columns are NOT NULL. {@code partitioning}
 * is null for a plain table. {@code defaultExpressions} maps a column's name to its DEFAULT expression
 * as written (the columns themselves carry no default until the expression is planned and checked);
 * {@code identities} maps the serial and identity columns to their clause (their sequences are
 * created with the table). {@code storageParameters} are WITH's, checked when the table is made.
 * {@code checks} are the CHECK constraints, column and table ones in the order written.
 * {@code temporary} is null for a permanent table. {@code foreignKeys} are the FOREIGN KEY
 * constraints, column and table ones in the order written.
 */
public record CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns,
                                   List<TableConstraint> constraints, HashPartitioning partitioning,
                                   Map<String, String> defaultExpressions, Map<String, IdentityClause> identities,
                                   Map<String, String> storageParameters, List<CheckClause> checks,
                                   TemporaryTable temporary, List<ForeignKeyClause> foreignKeys) implements Statement {
    public CreateTableStatement {
        columns = List.copyOf(columns);
        constraints = List.copyOf(constraints);
        defaultExpressions = Map.copyOf(defaultExpressions);
        identities = Map.copyOf(identities);
        // WITH (...) in the order written; a value is null when written without one.
        storageParameters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(storageParameters));
        checks = List.copyOf(checks);
        foreignKeys = List.copyOf(foreignKeys);
    }

    /** A table without foreign keys. */
    public CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns,
                                List<TableConstraint> constraints, HashPartitioning partitioning,
                                Map<String, String> defaultExpressions, Map<String, IdentityClause> identities,
                                Map<String, String> storageParameters, List<CheckClause> checks, TemporaryTable temporary) {
        this(tableName, ifNotExists, columns, constraints, partitioning, defaultExpressions, identities, storageParameters, checks,
                temporary, List.of());
    }

    /** A permanent table. */
    public CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns,
                                List<TableConstraint> constraints, HashPartitioning partitioning,
                                Map<String, String> defaultExpressions, Map<String, IdentityClause> identities,
                                Map<String, String> storageParameters, List<CheckClause> checks) {
        this(tableName, ifNotExists, columns, constraints, partitioning, defaultExpressions, identities, storageParameters, checks, null);
    }

    /** A table without defaults. */
    public CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns,
                                List<TableConstraint> constraints, HashPartitioning partitioning) {
        this(tableName, ifNotExists, columns, constraints, partitioning, Map.of(), Map.of(), Map.of(), List.of());
    }

    /** A plain (not partitioned) table. */
    public CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns,
                                List<TableConstraint> constraints) {
        this(tableName, ifNotExists, columns, constraints, null);
    }

    /** A table without constraints. */
    public CreateTableStatement(String tableName, boolean ifNotExists, List<ColumnDefinition> columns) {
        this(tableName, ifNotExists, columns, List.of(), null);
    }
}
