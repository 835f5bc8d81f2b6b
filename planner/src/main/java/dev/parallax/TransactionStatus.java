package dev.parallax;

/**
 * Where a session stands with respect to a transaction block, as PostgreSQL's ReadyForQuery
 * reports it: idle (autocommit), inside a block opened by BEGIN, or inside a block in which a
 * statement failed (every statement but COMMIT / ROLLBACK is then refused with 25P02).
 */
public enum TransactionStatus {
    IDLE('I'),
    IN_BLOCK('T'),
    FAILED('E');

    private final char indicator;

    TransactionStatus(char indicator) {
        this.indicator = indicator;
    }

    /** The ReadyForQuery status byte: {@code I}, {@code T} or {@code E}. */
    public char indicator() {
        return indicator;
    }
}
