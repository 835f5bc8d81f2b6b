package dev.parallax.planner.statement;

import dev.parallax.engine.sequence.SequenceOptions;

/** {@code CREATE SEQUENCE [IF NOT EXISTS] name [AS type] [INCREMENT [BY] n] [MINVALUE n | NO MINVALUE] ...}. */
public record CreateSequenceStatement(String sequenceName, boolean ifNotExists, SequenceOptions.Declared options) implements Statement {
}
