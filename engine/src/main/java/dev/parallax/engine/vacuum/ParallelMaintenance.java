package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.storage.PagedTableStorage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs the tables of a VACUUM / ANALYZE side by side, as {@code vacuumdb -j} does: the tasks are
 * ordered largest table first and handed out from one shared counter, so each participant takes
 * the next table as soon as it is free and the big tables do not end up last. The caller is a
 * participant; the others are workers of the database's pool, taken from its
 * {@code max_parallel_workers} budget (fewer when busy, as a Gather's workers) and given back at
 * the end. Once no table is left to hand out, an idle participant helps the tables still being
 * vacuumed, page by page ({@link TableVacuumRun#help}), the one with the most pages left first, so
 * that the participants finish together instead of waiting for the last table's owner.
 */
public final class ParallelMaintenance {
    private ParallelMaintenance() {
    }

    /**
     * Runs {@code tasks} with up to {@code participants} participants (the caller included; 1 runs
     * them one by one on the caller) and returns the results in the order of {@code tasks}. The
     * first failure stops the hand-out and is rethrown once the running tasks finished; tasks
     * already done stay done (each table's maintenance is complete on its own, as in PostgreSQL).
     *
     * @param workers      the database's workers; null runs everything on the caller
     * @param sessionLimit the session's max_parallel_workers
     * @param automatic    true for autovacuum (recorded as such in the tables' activity)
     */
    public static List<MaintenanceResult> run(List<MaintenanceTask> tasks, int participants, WorkerPool workers,
                                              int sessionLimit, boolean automatic, VacuumProgress progress,
                                              BooleanSupplier cancelled) {
        Objects.requireNonNull(tasks, "tasks");
        List<Integer> order = new ArrayList<>(tasks.size());
        for (int index = 0; index < tasks.size(); index++) {
            order.add(index);
        }
        // Largest first; the stable sort keeps the statement's order among equals.
        order.sort(Comparator.comparingLong((Integer index) -> tasks.get(index).table().storage().sizeBytes()).reversed());
        AtomicReferenceArray<MaintenanceResult> results = new AtomicReferenceArray<>(tasks.size());
        AtomicInteger next = new AtomicInteger();
        AtomicReferenceArray<TableVacuumRun> running = new AtomicReferenceArray<>(tasks.size());
        int wanted = workers == null ? 0 : Math.max(0, Math.min(participants, tasks.size()) - 1);
        int granted = wanted == 0 ? 0 : workers.acquire(wanted, sessionLimit);
        // Polled by every participant once per page: a volatile read, not a monitor. JFR saw the two
        // participants of VacuumBenchmark block on a synchronized check of it (4 ms in 6 runs).
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        BooleanSupplier stop = () -> failure.get() != null || cancelled.getAsBoolean();
        try {
            List<CompletableFuture<Void>> started = new ArrayList<>(granted);
            for (int worker = 1; worker <= granted; worker++) {
                int participant = worker;
                started.add(CompletableFuture.runAsync(() -> participate(tasks, order, next, running, results, participant,
                        automatic, progress, stop, failure), workers.pool()));
            }
            participate(tasks, order, next, running, results, 0, automatic, progress, stop, failure);
            for (CompletableFuture<Void> worker : started) {
                try {
                    worker.join();
                } catch (CompletionException unexpected) {
                    failure.compareAndSet(null, unexpected.getCause() instanceof RuntimeException cause ? cause : unexpected);
                }
            }
        } finally {
            if (granted > 0) {
                workers.release(granted);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        List<MaintenanceResult> list = new ArrayList<>(tasks.size());
        for (int index = 0; index < tasks.size(); index++) {
            MaintenanceResult result = results.get(index);
            if (result != null) {
                list.add(result);
            }
        }
        return list;
    }

    private static void participate(List<MaintenanceTask> tasks, List<Integer> order, AtomicInteger next,
                                    AtomicReferenceArray<TableVacuumRun> running,
                                    AtomicReferenceArray<MaintenanceResult> results, int participant, boolean automatic,
                                    VacuumProgress progress, BooleanSupplier stop, AtomicReference<RuntimeException> failure) {
        try {
            while (!stop.getAsBoolean()) {
                int claimed = next.getAndIncrement();
                if (claimed >= order.size()) {
                    break;
                }
                int taskIndex = order.get(claimed);
                try {
                    results.set(taskIndex, runTask(tasks.get(taskIndex), participant, automatic, progress, stop,
                            run -> running.set(taskIndex, run)));
                } finally {
                    running.set(taskIndex, null);
                }
            }
            // Nothing left to hand out: help the tables still running, the one with most pages left first.
            while (!stop.getAsBoolean()) {
                TableVacuumRun busiest = null;
                int mostPages = 0;
                for (int index = 0; index < running.length(); index++) {
                    TableVacuumRun run = running.get(index);
                    int pages = run == null ? 0 : run.unclaimedPages();
                    if (pages > mostPages) {
                        mostPages = pages;
                        busiest = run;
                    }
                }
                if (busiest == null) {
                    return;
                }
                busiest.help(stop);
            }
        } catch (RuntimeException error) {
            failure.compareAndSet(null, error);
        }
    }

    /** Vacuums and/or analyzes one table on the calling thread. */
    public static MaintenanceResult runTask(MaintenanceTask task, int participant, boolean automatic, VacuumProgress progress,
                                            BooleanSupplier cancelled) {
        return runTask(task, participant, automatic, progress, cancelled, null);
    }

    /** As above; a plain VACUUM hands its run to {@code started} so that idle participants can help. */
    private static MaintenanceResult runTask(MaintenanceTask task, int participant, boolean automatic, VacuumProgress progress,
                                             BooleanSupplier cancelled, Consumer<TableVacuumRun> started) {
        VacuumReport report = null;
        if (task.vacuum()) {
            report = task.full() ? FullTableVacuum.vacuum(task.table(), progress, cancelled)
                    : TableVacuum.vacuum(task.table(), automatic, progress, cancelled, started);
        }
        TableStatistics statistics = null;
        long deadRows = 0;
        if (task.analyze() && !cancelled.getAsBoolean()) {
            statistics = TableAnalyzer.analyze(task.table(), task.analyzeColumns(), cancelled);
            if (statistics != null) {
                task.table().setStatistics(statistics);
                task.table().maintenance().recordAnalyze(Instant.now(), automatic);
                if (task.table().storage() instanceof PagedTableStorage paged) {
                    deadRows = paged.deadRowCount();
                }
            }
        }
        return new MaintenanceResult(task, report, statistics, deadRows, participant);
    }
}
