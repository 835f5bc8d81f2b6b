package dev.parallax.planner.statement;

import dev.parallax.engine.sequence.SequenceOptions;

/**
 * {@code CREATE SEQUENCE [IF NOT EXISTS] name [AS type] [INCREMENT [BY] n] [MINVALUE n | NO MINVALUE] ...
 * [OWNED BY table.column | NONE]} ({@code ownedBy} null when not written).
 */
public record CreateSequenceStatement(String sequenceName, boolean ifNotExists, SequenceOptions.Declared options,
                                      SequenceOwner ownedBy) implements Statement {
}
