package dev.parallax.planner.statement;

import java.util.List;
import java.util.Objects;

/**
 * {@code CREATE [OR REPLACE] VIEW name [(column, ...)] AS query}: the column names given (possibly
 * fewer than the query's columns, none when omitted) and the query's text.
 */
public record CreateViewStatement(String viewName, List<String> columnNames, String query, boolean orReplace)
        implements Statement {
    public CreateViewStatement {
        Objects.requireNonNull(viewName, "viewName");
        columnNames = List.copyOf(columnNames);
        Objects.requireNonNull(query, "query");
    }
}
