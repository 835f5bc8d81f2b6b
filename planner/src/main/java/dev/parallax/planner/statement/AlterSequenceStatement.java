package dev.parallax.planner.statement;

import dev.parallax.engine.sequence.SequenceOptions;

/**
 * {@code ALTER SEQUENCE [IF EXISTS] name [options] [RESTART [[WITH] n]]}: the options written
 * replace the sequence's; {@code restart} restarts it at {@code restartValue} (its start when null).
 */
public record AlterSequenceStatement(String sequenceName, boolean ifExists, SequenceOptions.Declared options, boolean restart,
                                     Long restartValue) implements Statement {
}
