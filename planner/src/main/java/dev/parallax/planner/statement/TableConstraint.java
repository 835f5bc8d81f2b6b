package dev.parallax.planner.statement;

import java.util.List;

/**
 * A PRIMARY KEY or UNIQUE constraint of CREATE TABLE, written on a column or as a table constraint:
 * its name ({@code CONSTRAINT name}, or null for PostgreSQL's default name) and key columns in
 * order. With {@code indexOnly}, a unique index of CREATE UNIQUE INDEX instead (no constraint, a
 * partition's share named {@code partition_cols_idx}).
 */
public record TableConstraint(String name, boolean primaryKey, List<String> columnNames, boolean indexOnly) {
    /** A PRIMARY KEY or UNIQUE constraint. */
    public TableConstraint(String name, boolean primaryKey, List<String> columnNames) {
        this(name, primaryKey, columnNames, false);
    }

    public TableConstraint {
        columnNames = List.copyOf(columnNames);
        if (columnNames.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
    }
}
