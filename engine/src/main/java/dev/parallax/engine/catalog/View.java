package dev.parallax.engine.catalog;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A view: a name, its column names, and the text of its query (a SELECT in the SQL dialect the
 * planner accepts), expanded by the planner wherever the view is referenced. A user view also
 * records its columns' types as CREATE VIEW planned them (PostgreSQL fixes them then too), which
 * pg_attribute, information_schema.columns and \d list; the information_schema views, planned
 * where they are used, record none.
 */
public record View(String name, List<String> columnNames, List<DataType> columnTypes, String query) {
    public View {
        Objects.requireNonNull(name, "name");
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        Objects.requireNonNull(query, "query");
        if (!columnTypes.isEmpty() && columnTypes.size() != columnNames.size()) {
            throw new IllegalArgumentException("view " + name + " has " + columnNames.size() + " column names but "
                    + columnTypes.size() + " types");
        }
    }

    /** A view whose column types are its query's, found where it is planned. */
    public View(String name, List<String> columnNames, String query) {
        this(name, columnNames, List.of(), query);
    }

    /** The view under another name (ALTER VIEW ... RENAME TO). */
    public View renamed(String newName) {
        return new View(newName, columnNames, columnTypes, query);
    }

    /** The columns as pg_attribute lists them: the recorded types, nullable as every view column is. */
    public List<ColumnDefinition> columns() {
        if (columnTypes.isEmpty() && !columnNames.isEmpty()) {
            throw new IllegalStateException("view " + name + " records no column types");
        }
        List<ColumnDefinition> columns = new ArrayList<>(columnNames.size());
        for (int index = 0; index < columnNames.size(); index++) {
            columns.add(new ColumnDefinition(columnNames.get(index), columnTypes.get(index), false));
        }
        return columns;
    }
}
