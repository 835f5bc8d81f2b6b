package dev.parallax.planner.statement;

import dev.parallax.engine.sequence.SequenceOptions;

/**
 * {@code ALTER SEQUENCE [IF EXISTS] name [options] [RESTART [[WITH] n]]}: the options written
 * replace the sequence's; {@code restart} restarts it at {@code restartValue} (its start when null);
 * {@code ownedBy}, when written, is its new owning column ({@code OWNED BY t.c | NONE}).
 */
public record AlterSequenceStatement(RelationName sequenceName, boolean ifExists, SequenceOptions.Declared options, boolean restart,
                                     Long restartValue, SequenceOwner ownedBy) implements Statement {
}
