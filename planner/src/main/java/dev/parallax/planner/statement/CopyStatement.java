package dev.parallax.planner.statement;

import dev.parallax.engine.load.CopyFormat;
import java.util.List;

/**
 * {@code COPY table [(column, ...)] FROM 'file' | STDIN [WITH] (option, ...)}. {@code columns} is empty
 * when all columns are loaded in table order; {@code fileName} is null for STDIN.
 */
public record CopyStatement(RelationName tableName, List<String> columns, String fileName, CopyFormat options) implements Statement {
    public CopyStatement {
        columns = List.copyOf(columns);
    }
}
