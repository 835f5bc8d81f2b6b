package dev.parallax;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.exec.StatementProgress;
import dev.parallax.engine.settings.Settings;

import java.util.Optional;

/**
 * A connection to a {@link Database}: its own settings and prepared statements. One thread uses a
 * session at a time, except {@link #cancel()}, which any thread may call.
 */
public interface Session extends AutoCloseable {
    /** Parses, plans and runs exactly one SQL statement (a trailing semicolon is allowed). */
    Result execute(String sql);

    /**
     * As {@link #execute(String)}, with {@code copy} as the client end of {@code COPY ... FROM STDIN}
     * and {@code COPY ... TO STDOUT} (without it those fail with 0A000).
     */
    Result execute(String sql, CopyChannel copy);

    /** Prepares one statement with {@code $n} or {@code ?} parameters. */
    PreparedQuery prepare(String sql);

    /**
     * Prepares {@code sql} under {@code name} in the session's namespace of named prepared
     * statements, the one SQL {@code PREPARE}, {@code EXECUTE} and {@code DEALLOCATE} use (as
     * PostgreSQL's protocol-level named statements do): 42P05 when the name is taken. The statement
     * lives until {@link #closePreparedStatement}, DEALLOCATE or the end of the session.
     */
    default PreparedQuery prepareNamed(String name, String sql) {
        throw new UnsupportedOperationException("named prepared statements");
    }

    /** The named prepared statement {@code name} (from {@link #prepareNamed} or SQL PREPARE), or null. */
    default PreparedQuery preparedStatement(String name) {
        return null;
    }

    /** Removes and closes the named prepared statement {@code name}; nothing when there is none. */
    default void closePreparedStatement(String name) {
    }

    /** Cancels the statement running in this session, if any (it fails with 57014). */
    void cancel();

    /**
     * Progress of the statement running in this session (what it does, units done of the expected
     * total, time so far), or empty when none is running or it reports none. Any thread may call
     * this, e.g. to draw a progress bar while {@link #execute} runs in another.
     */
    default Optional<StatementProgress.Snapshot> progress() {
        return Optional.empty();
    }

    /**
     * Where this session stands with respect to a transaction block (BEGIN ... COMMIT): what a wire
     * server reports in ReadyForQuery. Any thread may ask; the answer is current between statements.
     */
    default TransactionStatus transactionStatus() {
        return TransactionStatus.IDLE;
    }

    /**
     * Tells the session that a statement failed outside {@link #execute} and {@link PreparedQuery#execute}
     * (e.g. a wire-protocol Bind whose parameter value could not be decoded): inside a transaction
     * block the block becomes failed, as in PostgreSQL. Called by the session's thread.
     */
    default void failTransactionBlock() {
    }

    /** This session's settings (SET/SHOW/RESET act on them). */
    Settings settings();

    Database database();

    /**
     * The catalog as this session sees it: its temporary tables (CREATE TEMP TABLE) in front of the
     * database's relations, as the shell's \d lists them.
     */
    default Catalog catalog() {
        return database().catalog();
    }

    @Override
    void close();
}
