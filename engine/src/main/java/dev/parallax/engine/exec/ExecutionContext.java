package dev.parallax.engine.exec;

import dev.parallax.engine.catalog.RelationSizes;
import dev.parallax.engine.catalog.SessionViews;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.sequence.SequenceSession;
import dev.parallax.engine.settings.Settings;

import java.util.Objects;

/**
 * What one statement execution runs with: the database's memory and workers, a snapshot of the
 * session's settings, bound parameter values, the statement's and its transaction's start times
 * (statement_timestamp(), now()), cancellation, and whether EXPLAIN ANALYZE statistics are collected. Shared by the leader and its workers;
 * everything here is immutable or thread-safe.
 */
public final class ExecutionContext {
    private final MemoryManager memory;
    private final WorkerPool workers;
    private final Settings settings;
    private final Object[] parameters;
    private final long statementStartMicros;
    private final boolean collectStatistics;
    private final StatementProgress progress;
    private final RelationSizes relationSizes;
    /** The statement's own context, which holds cancellation: this one, or the one a correlated run derives from. */
    private final ExecutionContext statement;
    private volatile boolean cancelled;
    /** The session's sequences (nextval, currval, setval, lastval); set once before the statement runs. */
    private volatile SequenceSession sequences;
    /** What the session's own system views read (pg_prepared_statements); set once before the statement runs. */
    private volatile SessionViews sessionViews = SessionViews.NONE;
    /** now(): the start of the statement's transaction; the statement's start unless set (a statement in a BEGIN block). */
    private volatile long transactionStartMicros;
    private volatile String cancelReason = "canceling statement due to user request";

    public ExecutionContext(MemoryManager memory, WorkerPool workers, Settings settings, Object[] parameters,
                            long statementStartMicros, boolean collectStatistics) {
        this(memory, workers, settings, parameters, statementStartMicros, collectStatistics, RelationSizes.NONE);
    }

    /** A context whose size functions ({@code pg_table_size} ...) read {@code relationSizes}. */
    public ExecutionContext(MemoryManager memory, WorkerPool workers, Settings settings, Object[] parameters,
                            long statementStartMicros, boolean collectStatistics, RelationSizes relationSizes) {
        this.relationSizes = Objects.requireNonNull(relationSizes, "relationSizes");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.parameters = parameters == null ? new Object[0] : parameters.clone();
        this.statementStartMicros = statementStartMicros;
        this.transactionStartMicros = statementStartMicros;
        this.collectStatistics = collectStatistics;
        this.progress = new StatementProgress();
        this.statement = this;
    }

    private ExecutionContext(ExecutionContext statement, Object[] parameters) {
        this.memory = statement.memory;
        this.workers = statement.workers;
        this.settings = statement.settings;
        this.parameters = parameters;
        this.statementStartMicros = statement.statementStartMicros;
        this.transactionStartMicros = statement.transactionStartMicros;
        this.collectStatistics = statement.collectStatistics;
        this.progress = statement.progress;
        this.relationSizes = statement.relationSizes;
        this.statement = statement;
        this.sequences = statement.sequences;
        this.sessionViews = statement.sessionViews;
    }

    /**
     * A context of the same statement (memory, workers, settings, now(), progress, cancellation)
     * with other parameter values: a correlated inner plan's run sees its outer row's values as
     * parameters ({@link dev.parallax.engine.plan.CorrelateNode}). {@code parameters} is used as given.
     */
    public ExecutionContext withParameters(Object[] parameters) {
        return new ExecutionContext(statement, Objects.requireNonNull(parameters, "parameters"));
    }

    /** Copies of this context's parameter values, {@code length} slots (more slots are NULL). */
    public Object[] parameters(int length) {
        return java.util.Arrays.copyOf(parameters, Math.max(length, parameters.length));
    }

    /** Gives the statement its session's own system views; called once, before the statement runs. */
    public void setSessionViews(SessionViews views) {
        this.sessionViews = Objects.requireNonNull(views, "views");
    }

    /** Where scans of system views read in this statement's session ({@link SessionViews#NONE} unless set). */
    public SessionViews sessionViews() {
        return statement.sessionViews;
    }

    /** Gives the statement its session's sequences; called once, before the statement runs. */
    public void setSequences(SequenceSession sequences) {
        this.sequences = Objects.requireNonNull(sequences, "sequences");
    }

    /** The session's sequences; 0A000 when this statement runs outside a session (no sequence functions there). */
    public SequenceSession sequences() {
        SequenceSession session = statement.sequences != null ? statement.sequences : sequences;
        if (session == null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "sequence functions are not available here");
        }
        return session;
    }

    public MemoryManager memory() {
        return memory;
    }

    public WorkerPool workers() {
        return workers;
    }

    /** The settings snapshot this statement runs with (never changes during the statement). */
    public Settings settings() {
        return settings;
    }

    /**
     * Value of parameter {@code index} (0-based) in the engine's representation of its type
     * (Long, Double, byte[]), or null for SQL NULL.
     */
    public Object parameter(int index) {
        if (index < 0 || index >= parameters.length) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d", index + 1);
        }
        return parameters[index];
    }

    public int parameterCount() {
        return parameters.length;
    }

    /** statement_timestamp(): microseconds since the epoch when the statement started. */
    public long statementStartMicros() {
        return statementStartMicros;
    }

    /**
     * Gives the statement the start of the transaction it runs in (a block's BEGIN), for now(); called
     * once, before the statement runs. Without it, the transaction is the statement's own.
     */
    public void setTransactionStartMicros(long micros) {
        this.transactionStartMicros = micros;
    }

    /** now() / CURRENT_TIMESTAMP / transaction_timestamp(): microseconds since the epoch when the transaction started. */
    public long transactionStartMicros() {
        return statement.transactionStartMicros;
    }

    /** Where the size functions read the bytes relations hold now. */
    public RelationSizes relationSizes() {
        return relationSizes;
    }

    /** True under EXPLAIN ANALYZE: operators record rows and time per node and per worker. */
    public boolean collectStatistics() {
        return collectStatistics;
    }

    /** Progress of this statement, for long-running work to update and observers to read. */
    public StatementProgress progress() {
        return progress;
    }

    /** Asks the running statement to stop; operators notice at their next batch. Any thread may call. */
    public void cancel(String reason) {
        statement.cancelReason = reason;
        statement.cancelled = true;
    }

    public boolean isCancelled() {
        return statement.cancelled;
    }

    /** Throws 57014 when the statement was cancelled; operators call this once per batch. */
    public void checkCancelled() {
        if (statement.cancelled) {
            throw new ParallaxException(SqlState.QUERY_CANCELED, statement.cancelReason);
        }
    }
}
