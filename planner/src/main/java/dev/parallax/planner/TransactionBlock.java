package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.TransactionStatus;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.vector.Batch;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.ForwardingResult;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A session's transaction block, as far as Parallax can honour one without multi-statement
 * transactions: BEGIN / COMMIT / ROLLBACK with PostgreSQL's states, tags, warnings (25001, 25P01)
 * and failed-block behaviour (25P02 until the block ends). Statements inside a block are applied
 * as they run, each atomically. Settings are transactional, as in PostgreSQL: ROLLBACK (or COMMIT
 * of a failed block) restores those of BEGIN, and COMMIT undoes SET LOCAL.
 *
 * <p>What cannot be honoured is undoing data changes: ROLLBACK of a block in which a statement
 * changed data (DML that affected rows, DDL, COPY FROM, CALL) ends the block and fails with
 * 0A000, saying that those changes remain, instead of pretending to have undone them.
 * Used by the session's thread only; {@link #status()} may be read by any thread.
 */
final class TransactionBlock {
    private volatile TransactionStatus status = TransactionStatus.IDLE;
    /** Statements of the open block that changed data. */
    private int changingStatements;
    /** The session's changed settings at BEGIN, restored by ROLLBACK. */
    private Map<String, String> settingsAtBegin = Map.of();
    /** When BEGIN started the open block, microseconds since the epoch: the block's now(). */
    private long startMicros;
    /** Settings changed by SET LOCAL in the open block, with their value before (empty: the default). */
    private final Map<String, Optional<String>> localSettings = new HashMap<>();

    TransactionStatus status() {
        return status;
    }

    boolean inBlock() {
        return status != TransactionStatus.IDLE;
    }

    /**
     * now() of a statement that started at {@code statementStartMicros}: the block's start inside one
     * (the same for all its statements, as PostgreSQL's transaction_timestamp()), else the statement's.
     */
    long startMicros(long statementStartMicros) {
        return status == TransactionStatus.IDLE ? statementStartMicros : startMicros;
    }

    /** Refuses a statement other than COMMIT / ROLLBACK in a failed block, as PostgreSQL does. */
    void checkNotFailed() {
        if (status == TransactionStatus.FAILED) {
            throw ParallaxException.of(SqlState.IN_FAILED_SQL_TRANSACTION,
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
    }

    /** A statement failed: an open block becomes failed. */
    void statementFailed() {
        if (status == TransactionStatus.IN_BLOCK) {
            status = TransactionStatus.FAILED;
        }
    }

    /** A statement of the open block (if any) changed data that ROLLBACK cannot restore. */
    void dataChanged() {
        if (status != TransactionStatus.IDLE) {
            changingStatements++;
        }
    }

    /** Refuses a statement that PostgreSQL cannot run inside a transaction block (25001), e.g. VACUUM. */
    void checkOutsideBlock(String command) {
        if (status != TransactionStatus.IDLE) {
            throw ParallaxException.of(SqlState.ACTIVE_SQL_TRANSACTION, "%s cannot run inside a transaction block", command);
        }
    }

    /** Records the session value of {@code name} (canonical name) before SET LOCAL changes it in this block. */
    void beforeSetLocal(Settings settings, String name) {
        localSettings.computeIfAbsent(name, key -> Optional.ofNullable(settings.changed().get(key)));
    }

    /** A plain SET of {@code name} in the block: its value outlives the block (on COMMIT), whatever SET LOCAL did before. */
    void afterSet(String name) {
        localSettings.remove(name);
    }

    /** BEGIN, or START TRANSACTION: {@code tag} is the command's own. */
    Result begin(Settings settings, String tag) {
        if (status != TransactionStatus.IDLE) {
            // PostgreSQL warns and stays in the block (in a failed block BEGIN is refused before it gets here).
            return CommandResult.withMessages(tag,
                    List.of(Notice.warning(SqlState.ACTIVE_SQL_TRANSACTION, "there is already a transaction in progress")));
        }
        status = TransactionStatus.IN_BLOCK;
        java.time.Instant now = java.time.Instant.now();
        startMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
        changingStatements = 0;
        settingsAtBegin = settings.changed();
        localSettings.clear();
        return new CommandResult(tag);
    }

    Result commit(Settings settings) {
        return switch (status) {
            case IDLE -> noTransaction("COMMIT");
            // PostgreSQL ends a failed block on COMMIT by rolling it back, and says so in the tag.
            case FAILED -> rollback(settings);
            case IN_BLOCK -> {
                for (Map.Entry<String, Optional<String>> local : localSettings.entrySet()) {
                    restore(settings, local.getKey(), local.getValue().orElse(null));
                }
                end();
                yield new CommandResult("COMMIT");
            }
        };
    }

    Result rollback(Settings settings) {
        if (status == TransactionStatus.IDLE) {
            return noTransaction("ROLLBACK");
        }
        int changed = changingStatements;
        settings.resetAll();
        for (Map.Entry<String, String> setting : settingsAtBegin.entrySet()) {
            settings.set(setting.getKey(), setting.getValue());
        }
        end();
        if (changed > 0) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "ROLLBACK cannot undo the changes made in this transaction block",
                    changed + (changed == 1 ? " statement" : " statements") + " of the block changed data; Parallax applies each "
                            + "statement when it runs (there are no multi-statement transactions yet), so those changes remain.",
                    "The transaction block has ended. Settings changed in it were restored.", 0, null);
        }
        return new CommandResult("ROLLBACK");
    }

    /**
     * {@code result} watched for errors that surface while its rows are read: such an error fails
     * the block as one raised when the statement started would.
     */
    Result watch(Result result) {
        return result.hasRows() && status == TransactionStatus.IN_BLOCK ? new WatchedResult(result, this) : result;
    }

    private void end() {
        status = TransactionStatus.IDLE;
        changingStatements = 0;
        settingsAtBegin = Map.of();
        localSettings.clear();
    }

    private static void restore(Settings settings, String name, String value) {
        if (value == null) {
            settings.reset(name);
        } else {
            settings.set(name, value);
        }
    }

    private static Result noTransaction(String tag) {
        return CommandResult.withMessages(tag,
                List.of(Notice.warning(SqlState.NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress")));
    }

    /** A row-returning result whose read errors fail the block. */
    private static final class WatchedResult extends ForwardingResult {
        private final TransactionBlock block;

        WatchedResult(Result result, TransactionBlock block) {
            super(result);
            this.block = block;
        }

        @Override
        public boolean hasRows() {
            return true;
        }

        @Override
        public Batch nextBatch() {
            try {
                return delegate().nextBatch();
            } catch (RuntimeException failure) {
                block.statementFailed();
                throw failure;
            }
        }
    }
}
