package dev.parallax.planner.statement;

import java.util.List;

/** {@code DROP SEQUENCE [IF EXISTS] name [, ...]}. */
public record DropSequenceStatement(List<String> sequenceNames, boolean ifExists) implements Statement {
    public DropSequenceStatement {
        sequenceNames = List.copyOf(sequenceNames);
    }
}
