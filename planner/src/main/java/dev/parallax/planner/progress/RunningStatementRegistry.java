package dev.parallax.planner.progress;

import dev.parallax.RunningStatement;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.StatementProgress;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The statements running in all sessions of one database, for {@code pg_stat_progress} and
 * {@code Database.runningStatements()}. Sessions add a statement when it starts and remove it when
 * it ends; readers take a snapshot. Thread-safe.
 */
public final class RunningStatementRegistry {
    private record Entry(int session, String query) {
    }

    private final ConcurrentMap<ExecutionContext, Entry> running = new ConcurrentHashMap<>();

    public void add(ExecutionContext context, int session, String query) {
        running.put(context, new Entry(session, query));
    }

    public void remove(ExecutionContext context) {
        running.remove(context);
    }

    /** The running statements now, oldest first. */
    public List<RunningStatement> snapshot() {
        List<RunningStatement> statements = new ArrayList<>();
        running.forEach((context, entry) -> {
            StatementProgress.Snapshot progress = context.progress().snapshot();
            statements.add(new RunningStatement(entry.session(), entry.query(), progress.phase(), progress.done(),
                    progress.total(), progress.unit(), progress.elapsedNanos() / 1e9));
        });
        statements.sort(Comparator.comparingDouble(RunningStatement::elapsedSeconds).reversed());
        return statements;
    }
}
