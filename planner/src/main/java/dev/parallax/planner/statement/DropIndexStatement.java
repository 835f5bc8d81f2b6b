package dev.parallax.planner.statement;

import java.util.List;

/** {@code DROP INDEX [CONCURRENTLY] [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
public record DropIndexStatement(List<RelationName> indexNames, boolean ifExists) implements Statement {
    public DropIndexStatement {
        indexNames = List.copyOf(indexNames);
    }
}
