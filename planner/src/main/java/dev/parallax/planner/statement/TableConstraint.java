package dev.parallax.planner.statement;

import java.util.List;

/**
 * A PRIMARY KEY or UNIQUE constraint of CREATE TABLE, written on a column or as a table constraint:
 * its name ({@code CONSTRAINT name}, or null for PostgreSQL's default name) and key columns in order.
 */
public record TableConstraint(String name, boolean primaryKey, List<String> columnNames) {
    public TableConstraint {
        columnNames = List.copyOf(columnNames);
        if (columnNames.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
    }
}
