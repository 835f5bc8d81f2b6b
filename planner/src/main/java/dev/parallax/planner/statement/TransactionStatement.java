package dev.parallax.planner.statement;

/**
 * Transaction control: {@code BEGIN}/{@code START TRANSACTION}, {@code COMMIT}/{@code END}, {@code ROLLBACK}/{@code ABORT}.
 * START is BEGIN under the other spelling, kept apart because PostgreSQL tags it {@code START TRANSACTION}.
 */
public record TransactionStatement(Kind kind) implements Statement {
    public enum Kind { BEGIN, START, COMMIT, ROLLBACK }

    /** BEGIN or START TRANSACTION. */
    public boolean begins() {
        return kind == Kind.BEGIN || kind == Kind.START;
    }
}
