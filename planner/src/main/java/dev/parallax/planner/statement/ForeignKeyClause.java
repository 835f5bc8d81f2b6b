package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.ReferentialAction;

import java.util.List;

/**
 * A FOREIGN KEY constraint as written: {@code [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES
 * table [(referenced columns)] [MATCH SIMPLE | FULL] [ON DELETE action] [ON UPDATE action]}, or a column's
 * {@code REFERENCES table [(column)] ...} ({@code columnNames} is then that column). {@code name}
 * is null for PostgreSQL's default name; {@code referencedColumnNames} is empty for the referenced
 * table's primary key. {@code position} is where the constraint starts in the statement.
 */
public record ForeignKeyClause(String name, List<String> columnNames, RelationName referencedTable, List<String> referencedColumnNames,
                               ReferentialAction onDelete, ReferentialAction onUpdate, boolean matchFull, int position) {
    public ForeignKeyClause {
        columnNames = List.copyOf(columnNames);
        referencedColumnNames = List.copyOf(referencedColumnNames);
    }
}
