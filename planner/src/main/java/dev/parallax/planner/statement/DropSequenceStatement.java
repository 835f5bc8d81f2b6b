package dev.parallax.planner.statement;

import java.util.List;

/** {@code DROP SEQUENCE [IF EXISTS] name [, ...]}. */
public record DropSequenceStatement(List<RelationName> sequenceNames, boolean ifExists) implements Statement {
    public DropSequenceStatement {
        sequenceNames = List.copyOf(sequenceNames);
    }
}
