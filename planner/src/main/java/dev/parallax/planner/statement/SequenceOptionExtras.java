package dev.parallax.planner.statement;

/**
 * The sequence options beyond {@code SequenceOptions.Declared} that only some statements take, and
 * what the statement wrote of them: RESTART [[WITH] n] (ALTER SEQUENCE), OWNED BY (CREATE and ALTER
 * SEQUENCE), SEQUENCE NAME (an identity column's options, as pg_dump writes them). An option the
 * statement does not take is PostgreSQL's syntax error or "invalid sequence option".
 */
final class SequenceOptionExtras {
    final boolean restartAllowed;
    final boolean ownedByAllowed;
    final boolean sequenceNameAllowed;
    boolean restarted;
    Long restartValue;
    SequenceOwner ownedBy;
    String sequenceName;

    private SequenceOptionExtras(boolean restartAllowed, boolean ownedByAllowed, boolean sequenceNameAllowed) {
        this.restartAllowed = restartAllowed;
        this.ownedByAllowed = ownedByAllowed;
        this.sequenceNameAllowed = sequenceNameAllowed;
    }

    static SequenceOptionExtras forCreate() {
        return new SequenceOptionExtras(false, true, false);
    }

    static SequenceOptionExtras forAlter() {
        return new SequenceOptionExtras(true, true, false);
    }

    static SequenceOptionExtras forIdentity() {
        return new SequenceOptionExtras(false, false, true);
    }
}
