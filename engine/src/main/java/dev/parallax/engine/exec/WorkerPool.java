package dev.parallax.engine.exec;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Semaphore;

/**
 * The database's parallel workers: a ForkJoinPool that runs the parallel parts of plans, and the
 * database-wide budget of {@code max_parallel_workers}. A Gather asks for the workers it planned
 * and runs with what it gets ("Workers Launched"), as PostgreSQL does when workers are busy.
 */
public final class WorkerPool implements AutoCloseable {
    private final ForkJoinPool pool;
    private final int maximumWorkers;
    private final Semaphore available;

    public WorkerPool(int threads, int maximumWorkers) {
        this.pool = new ForkJoinPool(Math.max(1, threads));
        this.maximumWorkers = maximumWorkers;
        this.available = new Semaphore(maximumWorkers);
    }

    public ForkJoinPool pool() {
        return pool;
    }

    /**
     * Takes up to {@code wanted} workers from the database-wide budget, also capped by
     * {@code sessionLimit} (the session's max_parallel_workers); returns how many were granted.
     * Never blocks. Each granted worker must be given back with {@link #release}.
     */
    public int acquire(int wanted, int sessionLimit) {
        int target = Math.min(wanted, Math.min(sessionLimit, maximumWorkers));
        int granted = 0;
        while (granted < target && available.tryAcquire()) {
            granted++;
        }
        return granted;
    }

    public void release(int workers) {
        if (workers > 0) {
            available.release(workers);
        }
    }

    /** Workers currently not in use. */
    public int idleWorkers() {
        return available.availablePermits();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
