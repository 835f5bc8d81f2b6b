package dev.parallax.engine.exec;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.settings.Settings;

import java.util.Objects;

/**
 * What one statement execution runs with: the database's memory and workers, a snapshot of the
 * session's settings, bound parameter values, the statement's start time (now()), cancellation,
 * and whether EXPLAIN ANALYZE statistics are collected. Shared by the leader and its workers;
 * everything here is immutable or thread-safe.
 */
public final class ExecutionContext {
    private final MemoryManager memory;
    private final WorkerPool workers;
    private final Settings settings;
    private final Object[] parameters;
    private final long statementStartMicros;
    private final boolean collectStatistics;
    private final StatementProgress progress = new StatementProgress();
    private volatile boolean cancelled;
    private volatile String cancelReason = "canceling statement due to user request";

    public ExecutionContext(MemoryManager memory, WorkerPool workers, Settings settings, Object[] parameters,
                            long statementStartMicros, boolean collectStatistics) {
        this.memory = Objects.requireNonNull(memory, "memory");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.parameters = parameters == null ? new Object[0] : parameters.clone();
        this.statementStartMicros = statementStartMicros;
        this.collectStatistics = collectStatistics;
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

    /** now() / CURRENT_TIMESTAMP: microseconds since the epoch when the statement started. */
    public long statementStartMicros() {
        return statementStartMicros;
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
        this.cancelReason = reason;
        this.cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Throws 57014 when the statement was cancelled; operators call this once per batch. */
    public void checkCancelled() {
        if (cancelled) {
            throw new ParallaxException(SqlState.QUERY_CANCELED, cancelReason);
        }
    }
}
