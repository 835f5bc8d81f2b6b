package dev.parallax.planner.statement;

import java.util.List;

/** {@code DROP VIEW [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
public record DropViewStatement(List<RelationName> viewNames, boolean ifExists) implements Statement {
    public DropViewStatement {
        viewNames = List.copyOf(viewNames);
    }
}
