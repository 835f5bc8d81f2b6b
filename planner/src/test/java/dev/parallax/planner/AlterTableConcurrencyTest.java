package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALTER TABLE's rewrite (ADD / DROP COLUMN, SET NOT NULL) against statements of other sessions:
 * scans running meanwhile see every row, writers either land before the rewrite (and their rows
 * are copied) or fail with 40001 (their table was replaced) and write nothing; no write is lost.
 */
class AlterTableConcurrencyTest {
    private static final int ROWS = 20_000;
    private static final int ALTERS = 12;

    private Database database;
    private Session session;
    private ExecutorService threads;

    @BeforeEach
    void open() {
        // Small pages: the table spans many pages, so scans and rewrites take a while and interleave.
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2).withPageSize(8 * 1024));
        session = database.openSession();
        execute(session, "create table t (id int primary key, v int)");
        execute(session, "insert into t select g, g from generate_series(1, " + ROWS + ") g");
        threads = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        session.close();
        database.close();
    }

    private static List<List<Object>> execute(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            return result.fetchAll();
        }
    }

    /** Adds a column, drops the one added before it, and sets NOT NULL on it: three rewrites per round. */
    private void alterRepeatedly() {
        for (int round = 0; round < ALTERS; round++) {
            execute(session, "alter table t add column c" + round + " int default " + round);
            if (round > 0) {
                execute(session, "alter table t drop column c" + (round - 1));
            }
            execute(session, "alter table t alter column c" + round + " set not null");
        }
    }

    @Test
    void scansDuringRewritesSeeEveryRow() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Future<Integer> reader = threads.submit(() -> {
            int scans = 0;
            try (Session other = database.openSession()) {
                execute(other, "set debug_parallel_query = on");
                execute(other, "set parallel_scan_chunk_pages = 1");
                while (!done.get()) {
                    List<Object> row = execute(other, "select count(*), sum(id) from t").getFirst();
                    assertEquals((long) ROWS, ((Number) row.get(0)).longValue());
                    assertEquals((long) ROWS * (ROWS + 1) / 2, ((Number) row.get(1)).longValue());
                    scans++;
                }
            }
            return scans;
        });
        alterRepeatedly();
        done.set(true);
        assertTrue(reader.get() > 0);
        assertEquals(List.of(List.of((long) ROWS, ALTERS - 1)),
                execute(session, "select count(*), min(c" + (ALTERS - 1) + ") from t"));
    }

    @Test
    void writersDuringRewritesLoseNothing() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Future<List<Integer>> writer = threads.submit(() -> {
            List<Integer> inserted = new ArrayList<>();
            try (Session other = database.openSession()) {
                for (int id = ROWS + 1; !done.get(); id++) {
                    try {
                        execute(other, "insert into t (id, v) values (" + id + ", " + id + ")");
                        inserted.add(id);
                    } catch (ParallaxException failure) {
                        // The only failure allowed: the table was replaced between planning and writing.
                        assertEquals(SqlState.SERIALIZATION_FAILURE, failure.state(), failure.getMessage());
                    }
                }
            }
            return inserted;
        });
        alterRepeatedly();
        done.set(true);
        List<Integer> inserted = writer.get();
        List<Object> summary = execute(session, "select count(*), count(distinct id), count(*) filter (where id > " + ROWS + ") from t").getFirst();
        assertEquals((long) ROWS + inserted.size(), ((Number) summary.get(0)).longValue());
        assertEquals(summary.get(0), summary.get(1));
        assertEquals((long) inserted.size(), ((Number) summary.get(2)).longValue());
        // Rows written after the last rewrite read the column's default.
        assertEquals(List.of(List.of(0L)), execute(session, "select count(*) from t where c" + (ALTERS - 1) + " is null"));
    }

    @Test
    void vacuumDuringRewritesKeepsTheRows() throws Exception {
        execute(session, "delete from t where id % 3 = 0");
        long kept = ROWS - ROWS / 3;
        AtomicBoolean done = new AtomicBoolean();
        Future<Integer> vacuums = threads.submit(() -> {
            int runs = 0;
            try (Session other = database.openSession()) {
                while (!done.get()) {
                    try {
                        execute(other, runs % 2 == 0 ? "vacuum t" : "vacuum full t");
                    } catch (ParallaxException failure) {
                        assertEquals(SqlState.SERIALIZATION_FAILURE, failure.state(), failure.getMessage());
                    }
                    runs++;
                }
            }
            return runs;
        });
        alterRepeatedly();
        done.set(true);
        assertTrue(vacuums.get() > 0);
        assertEquals(List.of(List.of(kept, kept)), execute(session, "select count(*), count(distinct id) from t"));
    }
}
