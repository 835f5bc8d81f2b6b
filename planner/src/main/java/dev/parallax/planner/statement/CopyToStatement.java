package dev.parallax.planner.statement;

import dev.parallax.engine.load.CopyFormat;
import java.util.List;

/**
 * {@code COPY table [(column, ...)] TO 'file' | STDOUT [WITH] (option, ...)} and
 * {@code COPY (query) TO ...}. Exactly one of {@code tableName} and {@code query} is set;
 * {@code fileName} is null for STDOUT; {@code columns} is empty for all columns in table order.
 */
public record CopyToStatement(RelationName tableName, List<String> columns, String query, String fileName, CopyFormat options)
        implements Statement {
    public CopyToStatement {
        columns = List.copyOf(columns);
    }
}
