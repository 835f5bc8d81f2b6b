package dev.parallax.planner.statement;

/** Transaction control: {@code BEGIN}/{@code START TRANSACTION}, {@code COMMIT}/{@code END}, {@code ROLLBACK}/{@code ABORT}. */
public record TransactionStatement(Kind kind) implements Statement {
    public enum Kind { BEGIN, COMMIT, ROLLBACK }
}
