package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.vector.Batch;

/** Parallax embedded, one session, as the benchmarks drive it. */
public final class ParallaxPeer implements AutoCloseable {
    private final Database database = Database.inMemory();
    private final Session session = database.openSession();

    public ParallaxPeer() {
    }

    /**
     * Uses {@code threads} threads per query the PostgreSQL way: the leader plus
     * {@code threads - 1} workers (max_parallel_workers_per_gather).
     */
    public void useThreads(int threads) {
        execute("SET max_parallel_workers_per_gather = " + Math.max(0, threads - 1));
    }

    public void execute(String sql) {
        try (Result result = session.execute(sql)) {
            while (result.nextBatch() != null) {
                // drain
            }
        }
    }

    /** Runs a query and visits every live row; returns the row count (the values stay in column form, as DuckDB's do until fetched). */
    public long consume(String sql) {
        long rows = 0;
        try (Result result = session.execute(sql)) {
            Batch batch;
            while ((batch = result.nextBatch()) != null) {
                rows += batch.selectedCount();
            }
        }
        return rows;
    }

    public Session session() {
        return session;
    }

    @Override
    public void close() {
        session.close();
        database.close();
    }
}
