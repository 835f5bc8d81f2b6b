package dev.parallax.engine.catalog;

import java.util.List;
import java.util.Objects;

/**
 * A view: a name, its column names, and the text of its query (a SELECT in the SQL dialect the
 * planner accepts), expanded by the planner wherever the view is referenced.
 */
public record View(String name, List<String> columnNames, String query) {
    public View {
        Objects.requireNonNull(name, "name");
        columnNames = List.copyOf(columnNames);
        Objects.requireNonNull(query, "query");
    }
}
