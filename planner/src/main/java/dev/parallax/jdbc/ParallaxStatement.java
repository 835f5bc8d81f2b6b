package dev.parallax.jdbc;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.settings.Settings;
import dev.parallax.planner.statement.StatementSplitter;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A JDBC Statement over the connection's {@link Session}. {@code execute} splits the text into
 * statements the way psql does and runs them all, in order; their outcomes are then walked with
 * {@code getResultSet}/{@code getUpdateCount}/{@code getMoreResults}. A row-returning statement's
 * rows stream from the engine as the ResultSet is read. Used by one thread at a time, except
 * {@link #cancel()}, which any thread may call.
 * <p>
 * {@code setQueryTimeout} runs the statements with the session's {@code statement_timeout}, so a
 * timed-out query fails with PostgreSQL's 57014 "canceling statement due to statement timeout",
 * as it does through pgJDBC.
 */
class ParallaxStatement implements Statement {
    private static final String STATEMENT_TIMEOUT = "statement_timeout";

    final ParallaxConnection connection;
    private final ArrayDeque<Result> pendingResults = new ArrayDeque<>();
    private final List<String> batch = new ArrayList<>();
    private ParallaxResultSet currentResultSet;
    private long updateCount = -1;
    private long maxRows;
    private int fetchSize;
    private int queryTimeoutSeconds;
    private boolean closeOnCompletion;
    private boolean poolable;
    /** Set while the statement itself closes its result sets, so closeOnCompletion does not fire then. */
    private boolean replacingResults;
    private SQLWarning warnings;
    private volatile boolean closed;
    /**
     * Whether the statement runs for its generated keys (RETURN_GENERATED_KEYS, with RETURNING *
     * added as pgJDBC adds it): its rows are then kept as {@link #getGeneratedKeys()} and its outcome
     * is the update count.
     */
    boolean keysWanted;
    private ParallaxResultSet generatedKeys;

    ParallaxStatement(ParallaxConnection connection) {
        this.connection = connection;
    }

    // ---- execution ----

    @Override
    public boolean execute(String sql) throws SQLException {
        checkSqlTextAllowed();
        checkOpen();
        discardResults();
        List<String> statements = StatementSplitter.split(sql);
        Session session = connection.session();
        List<Result> results = new ArrayList<>(Math.max(1, statements.size()));
        try {
            if (statements.isEmpty()) {
                // Only whitespace or comments: the engine answers it as PostgreSQL's empty query.
                results.add(start(() -> session.execute(sql)));
            }
            for (String statement : statements) {
                results.add(start(() -> session.execute(statement)));
            }
        } catch (SQLException failure) {
            for (Result result : results) {
                result.close();
            }
            throw failure;
        }
        pendingResults.addAll(results);
        return nextResult();
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        execute(sql);
        return firstResultSet();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return saturated(executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        execute(sql);
        return firstUpdateCount();
    }

    /** The first result set among the outcomes; pgJDBC's 02000 when the statements returned none. */
    final ResultSet firstResultSet() throws SQLException {
        while (currentResultSet == null) {
            if (updateCount == -1) {
                throw JdbcErrors.of("No results were returned by the query.", JdbcErrors.NO_DATA);
            }
            nextResult();
        }
        return currentResultSet;
    }

    /** The first outcome's update count; pgJDBC's 0100E when it returned rows. */
    final long firstUpdateCount() throws SQLException {
        if (currentResultSet != null) {
            discardResults();
            throw JdbcErrors.of("A result was returned when none was expected.", JdbcErrors.TOO_MANY_RESULTS);
        }
        return Math.max(updateCount, 0);
    }

    /**
     * Starts one statement through {@code runner}, with this statement's query timeout as the
     * session's statement_timeout; engine errors become SQLExceptions.
     */
    final Result start(Supplier<Result> runner) throws SQLException {
        Settings settings = connection.session().settings();
        boolean timed = queryTimeoutSeconds > 0;
        boolean timeoutWasSet = false;
        String previousTimeout = null;
        try {
            if (timed) {
                timeoutWasSet = settings.changed().containsKey(STATEMENT_TIMEOUT);
                previousTimeout = settings.show(STATEMENT_TIMEOUT);
                settings.set(STATEMENT_TIMEOUT, Long.toString(Math.min(queryTimeoutSeconds * 1000L, Integer.MAX_VALUE)));
            }
            connection.beforeStatement();
            return runner.get();
        } catch (RuntimeException failure) {
            throw JdbcErrors.translate(failure);
        } finally {
            // The settings were snapshot when the statement started: restoring now does not shorten its timeout.
            if (timed) {
                if (timeoutWasSet) {
                    settings.set(STATEMENT_TIMEOUT, previousTimeout);
                } else {
                    settings.reset(STATEMENT_TIMEOUT);
                }
            }
        }
    }

    /** Makes these freshly started results the statement's outcomes. */
    final boolean beginResults(Result result) throws SQLException {
        pendingResults.add(result);
        return nextResult();
    }

    /** Moves to the next outcome: true for a result set, false for an update count or the end (count -1). */
    private boolean nextResult() throws SQLException {
        Result result = pendingResults.poll();
        currentResultSet = null;
        if (result == null) {
            updateCount = -1;
            return false;
        }
        for (Notice notice : result.messages()) {
            addWarning(new SQLWarning(notice.message(), notice.sqlState()));
        }
        if (result.hasRows() && keysWanted) {
            List<Object[]> rows = new ArrayList<>();
            try {
                for (List<Object> row : result.fetchAll()) {
                    rows.add(row.toArray());
                }
            } catch (RuntimeException failure) {
                throw JdbcErrors.translate(failure);
            } finally {
                result.close();
            }
            generatedKeys = new ParallaxResultSet(null, new RowListResult(result.columns(), rows), 0);
            updateCount = rows.size();
            return false;
        }
        if (result.hasRows()) {
            currentResultSet = new ParallaxResultSet(this, result, maxRows);
            currentResultSet.setFetchSize(fetchSize);
            updateCount = -1;
            return true;
        }
        updateCount = result.rowCount();
        result.close();
        return false;
    }

    /** Closes the current result set and the outcomes not walked yet, before a new execution. */
    final void discardResults() throws SQLException {
        replacingResults = true;
        try {
            if (currentResultSet != null) {
                currentResultSet.close();
                currentResultSet = null;
            }
            Result pending;
            while ((pending = pendingResults.poll()) != null) {
                pending.close();
            }
            updateCount = -1;
            generatedKeys = null;
        } finally {
            replacingResults = false;
        }
    }

    /** Called by a result set of this statement when it closes: closeOnCompletion closes us after the last one. */
    final void resultSetClosed(ParallaxResultSet resultSet) throws SQLException {
        if (resultSet != currentResultSet) {
            return;
        }
        currentResultSet = null;
        if (closeOnCompletion && !replacingResults && pendingResults.isEmpty()) {
            close();
        }
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return currentResultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return updateCount == -1 ? -1 : saturated(updateCount);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    /** Only CLOSE_CURRENT_RESULT: a streamed result cannot stay readable once the next one is taken. */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current != CLOSE_CURRENT_RESULT && currentResultSet != null) {
            throw JdbcErrors.notSupported("Only CLOSE_CURRENT_RESULT is supported: results stream and are read one at a time");
        }
        replacingResults = true;
        try {
            if (currentResultSet != null) {
                currentResultSet.close();
            }
        } finally {
            replacingResults = false;
        }
        return nextResult();
    }

    // ---- batches ----

    @Override
    public void addBatch(String sql) throws SQLException {
        checkSqlTextAllowed();
        checkOpen();
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        clearBatchEntries();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] narrowed = new int[counts.length];
        for (int index = 0; index < counts.length; index++) {
            narrowed[index] = saturated(counts[index]);
        }
        return narrowed;
    }

    /**
     * Runs the batch entries in order and clears the batch. A failing entry, or one that returns
     * rows, stops the batch with a BatchUpdateException holding the counts of the entries that ran
     * (they stay applied: Parallax runs in auto-commit) and pgJDBC's "Batch entry N ... was aborted".
     */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        discardResults();
        int size = batchSize();
        long[] counts = new long[size];
        try {
            for (int index = 0; index < size; index++) {
                Result result;
                try {
                    result = start(batchEntry(index));
                } catch (SQLException failure) {
                    throw batchFailure(index, java.util.Arrays.copyOf(counts, index), failure);
                }
                try (result) {
                    if (result.hasRows()) {
                        SQLException rows = JdbcErrors.of("A result was returned when none was expected.", JdbcErrors.TOO_MANY_RESULTS);
                        throw batchFailure(index, java.util.Arrays.copyOf(counts, index), rows);
                    }
                    counts[index] = result.rowCount();
                }
            }
            return counts;
        } finally {
            clearBatchEntries();
        }
    }

    private BatchUpdateException batchFailure(int index, long[] counts, SQLException cause) {
        String message = "Batch entry " + index + " " + describeBatchEntry(index) + " was aborted: " + cause.getMessage()
                + "  Call getNextException to see other errors in the batch.";
        BatchUpdateException failure = new BatchUpdateException(message, cause.getSQLState(), cause.getErrorCode(), counts, cause);
        failure.setNextException(cause);
        return failure;
    }

    int batchSize() {
        return batch.size();
    }

    Supplier<Result> batchEntry(int index) {
        String sql = batch.get(index);
        Session session = connection.session();
        return () -> session.execute(sql);
    }

    String describeBatchEntry(int index) {
        return batch.get(index);
    }

    void clearBatchEntries() {
        batch.clear();
    }

    /** PreparedStatement refuses the methods that take SQL text, as pgJDBC does. */
    void checkSqlTextAllowed() throws SQLException {
    }

    // ---- the variants with generated keys ----

    /**
     * The rows of the last INSERT / UPDATE / DELETE run with RETURN_GENERATED_KEYS: every column of
     * every row it changed (pgJDBC's RETURNING *), serial and identity values included; an empty
     * result otherwise.
     */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        return generatedKeys != null ? generatedKeys : new ParallaxResultSet(null, RowListResult.empty(List.of()), 0);
    }

    /**
     * {@code sql} with {@code RETURNING *} added when it is one INSERT, UPDATE or DELETE without a
     * RETURNING clause of its own (what pgJDBC does for RETURN_GENERATED_KEYS); null otherwise.
     */
    static String withReturningAll(String sql) {
        List<String> statements = StatementSplitter.split(sql);
        if (statements.size() != 1) {
            return null;
        }
        String statement = statements.getFirst().strip();
        while (statement.endsWith(";")) {
            statement = statement.substring(0, statement.length() - 1).strip();
        }
        String lower = statement.toLowerCase(java.util.Locale.ROOT);
        boolean modifies = lower.startsWith("insert") || lower.startsWith("update") || lower.startsWith("delete");
        if (!modifies || lower.replaceAll("'([^']|'')*'", "''").matches("(?s).*\\breturning\\b.*")) {
            return null;
        }
        return statement + " RETURNING *";
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return saturated(executeLargeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeysFlag(autoGeneratedKeys);
        String keysSql = autoGeneratedKeys == RETURN_GENERATED_KEYS ? withReturningAll(sql) : null;
        if (keysSql == null) {
            return execute(sql);
        }
        keysWanted = true;
        try {
            return execute(keysSql);
        } finally {
            keysWanted = false;
        }
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        execute(sql, autoGeneratedKeys);
        return firstUpdateCount();
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        throw generatedColumnsNotSupported();
    }

    static void checkGeneratedKeysFlag(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != RETURN_GENERATED_KEYS && autoGeneratedKeys != NO_GENERATED_KEYS) {
            throw JdbcErrors.of("Invalid autoGeneratedKeys value: " + autoGeneratedKeys, JdbcErrors.INVALID_PARAMETER_VALUE);
        }
    }

    static SQLException generatedColumnsNotSupported() {
        return JdbcErrors.notSupported("Returning generated columns by index or name is not supported: Parallax has no generated columns yet");
    }

    // ---- cancel, close, limits and properties ----

    /** Cancels the statement running in the connection's session (it fails with 57014); callable from any thread. */
    @Override
    public void cancel() throws SQLException {
        checkOpen();
        connection.session().cancel();
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            discardResults();
            clearBatchEntries();
            closeResources();
        } finally {
            connection.statementClosed(this);
        }
    }

    /** What a subclass frees on close (a prepared statement's plan). */
    void closeResources() {
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    final void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.of("This statement has been closed.", JdbcErrors.OBJECT_NOT_IN_STATE);
        }
        connection.checkOpen();
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public int getMaxRows() throws SQLException {
        return saturated(getLargeMaxRows());
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    /** Result sets of later executions stop after {@code max} rows (0: no limit) and stop their query there. */
    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw JdbcErrors.of("Maximum number of rows must be a value grater than or equal to 0.", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        maxRows = max;
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    /** Only 0 (no limit): values are never truncated. */
    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw JdbcErrors.of("The maximum field size must be a value greater than or equal to 0.", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        if (max > 0) {
            throw JdbcErrors.notSupported("Truncating values to a maximum field size is not supported");
        }
    }

    /**
     * Accepted; JDBC escapes ({@code {d '...'}}, {@code {fn ...}}) are not translated whatever the
     * setting, so SQL must be written in PostgreSQL's syntax.
     */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw JdbcErrors.of("Query timeout must be a value greater than or equals to 0.", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        queryTimeoutSeconds = seconds;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    private void addWarning(SQLWarning warning) {
        if (warnings == null) {
            warnings = warning;
        } else {
            warnings.setNextWarning(warning);
        }
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        checkOpen();
        throw JdbcErrors.notSupported("Named cursors are not supported");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.of("Invalid fetch direction constant: " + direction + ".", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** Accepted as a hint: results already stream one engine batch at a time. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw JdbcErrors.of("Fetch size must be a value greater to or equal to 0.", JdbcErrors.INVALID_PARAMETER_VALUE);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return JdbcWrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    static int saturated(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }
}
