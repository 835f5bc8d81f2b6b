package dev.parallax.planner.statement;

import java.util.Objects;

/**
 * What {@code CREATE [GLOBAL | LOCAL] TEMP | TEMPORARY TABLE ... [ON COMMIT ...]} says about the
 * table's life: it belongs to the session, and {@code onCommit} says what the end of each
 * transaction does to it. {@code global} records the deprecated GLOBAL, which PostgreSQL accepts
 * with a warning and treats as LOCAL.
 */
public record TemporaryTable(OnCommit onCommit, boolean global) {
    /** PostgreSQL's ON COMMIT actions; PRESERVE ROWS when the clause is left out. */
    public enum OnCommit {
        /** Rows stay until the session ends. */
        PRESERVE_ROWS,
        /** Every transaction's end empties the table (TRUNCATE). */
        DELETE_ROWS,
        /** The end of the transaction that created the table drops it. */
        DROP
    }

    public TemporaryTable {
        Objects.requireNonNull(onCommit, "onCommit");
    }

    /** PostgreSQL's warning for GLOBAL TEMPORARY. */
    public static final String GLOBAL_WARNING = "GLOBAL is deprecated in temporary table creation";
}
