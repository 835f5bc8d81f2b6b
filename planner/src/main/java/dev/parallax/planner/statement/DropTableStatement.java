package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code DROP TABLE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]} ({@code cascade}: also drop the
 * foreign keys that reference them).
 */
public record DropTableStatement(List<RelationName> tableNames, boolean ifExists, boolean cascade) implements Statement {
    public DropTableStatement {
        tableNames = List.copyOf(tableNames);
    }

    /** RESTRICT. */
    public DropTableStatement(List<RelationName> tableNames, boolean ifExists) {
        this(tableNames, ifExists, false);
    }
}
