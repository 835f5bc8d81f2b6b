package dev.parallax.planner.statement;

import java.util.List;

/** {@code DROP TABLE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
public record DropTableStatement(List<String> tableNames, boolean ifExists) implements Statement {
    public DropTableStatement {
        tableNames = List.copyOf(tableNames);
    }
}
