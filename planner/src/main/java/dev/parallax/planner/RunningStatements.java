package dev.parallax.planner;

import dev.parallax.engine.exec.StatementProgress;
import dev.parallax.planner.progress.RunningStatementRegistry;

import java.util.Optional;

import dev.parallax.engine.exec.ExecutionContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The statements a session is running (a query whose result is still open counts as running), so
 * that {@link SqlSession#cancel()} can reach them from any thread, and their statement_timeout
 * timers. Thread-safe.
 */
final class RunningStatements {
    static final String USER_CANCEL = "canceling statement due to user request";
    static final String TIMEOUT_CANCEL = "canceling statement due to statement timeout";

    /** One daemon thread for all sessions' statement_timeout timers: they only flip a flag. */
    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "parallax-statement-timeout");
        thread.setDaemon(true);
        return thread;
    });
    private static final Object NO_TIMER = new Object();

    private final Map<ExecutionContext, Object> running = new ConcurrentHashMap<>();
    private final RunningStatementRegistry registry;
    private final int sessionId;

    RunningStatements(RunningStatementRegistry registry, int sessionId) {
        this.registry = registry;
        this.sessionId = sessionId;
    }

    /** The session's number (pg_stat_progress's session column). */
    int sessionId() {
        return sessionId;
    }

    /** Registers a statement that starts now; with {@code timeoutMillis > 0} it is cancelled after that long. */
    void start(ExecutionContext context, long timeoutMillis, String query) {
        registry.add(context, sessionId, query);
        Object timer = timeoutMillis > 0
                ? TIMERS.schedule(() -> context.cancel(TIMEOUT_CANCEL), timeoutMillis, TimeUnit.MILLISECONDS)
                : NO_TIMER;
        running.put(context, timer);
    }

    /** The statement ended (finished, failed or closed early). Idempotent. */
    void finish(ExecutionContext context) {
        registry.remove(context);
        Object timer = running.remove(context);
        if (timer instanceof ScheduledFuture<?> future) {
            future.cancel(false);
        }
    }

    void cancelAll() {
        for (ExecutionContext context : running.keySet()) {
            context.cancel(USER_CANCEL);
        }
    }

    /** Progress of a running statement that reports some (the one furthest along when several do). */
    Optional<StatementProgress.Snapshot> progress() {
        StatementProgress.Snapshot best = null;
        for (ExecutionContext context : running.keySet()) {
            StatementProgress.Snapshot snapshot = context.progress().snapshot();
            if (!snapshot.phase().isEmpty() && (best == null || snapshot.elapsedNanos() > best.elapsedNanos())) {
                best = snapshot;
            }
        }
        return Optional.ofNullable(best);
    }

    boolean isEmpty() {
        return running.isEmpty();
    }
}
