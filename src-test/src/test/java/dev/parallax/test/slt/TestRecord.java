package dev.parallax.test.slt;

import java.util.List;

/** One record of a SQL logic test file, with the 1-based line it starts on. */
sealed interface TestRecord permits TestRecord.Statement, TestRecord.Query {
    int line();

    String sql();

    /**
     * {@code statement ok} or {@code statement error [SQLSTATE] [message substring]}.
     *
     * @param expectedState   the SQLSTATE the statement must fail with, or null when it must succeed
     *                        (an error with any code is expected when {@code expectError} holds and this is null)
     * @param expectedMessage a substring of the error message, or null
     */
    record Statement(int line, String sql, boolean expectError, String expectedState, String expectedMessage)
            implements TestRecord {
    }

    /**
     * {@code query <types> [nosort|rowsort]}: the rows as tab-separated PostgreSQL text, NULL as {@code NULL}
     * and the empty string as {@code (empty)}.
     */
    record Query(int line, String sql, String types, SortMode sortMode, List<String> expectedRows) implements TestRecord {
    }

    /** How result rows are compared: in the order returned, or both sides sorted as text. */
    enum SortMode { NOSORT, ROWSORT }
}
