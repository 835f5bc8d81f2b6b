package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TRUNCATE against statements of other sessions: parallel scans and prepared point lookups running
 * meanwhile never fail and never see a row of one load under another's key; single-row writers
 * never fail and lose nothing but what a truncate emptied. Each round empties the table and loads
 * it again with the round in its values ({@code v = round * 1,000,000 + id}).
 */
class TruncateConcurrencyTest {
    private static final int ROWS = 5_000;
    private static final int ROUNDS = 6;

    private Database database;
    private Session session;
    private ExecutorService threads;

    @BeforeEach
    void open() {
        // Small pages: the table spans many pages, so scans take a while and interleave with the truncates.
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2).withPageSize(8 * 1024));
        session = database.openSession();
        execute(session, "create table t (id int primary key, v int)");
        load(0);
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

    private void load(int round) {
        execute(session, "insert into t select g, " + round + " * 1000000 + g from generate_series(1, " + ROWS + ") g");
    }

    private void truncateAndLoadRepeatedly() {
        for (int round = 1; round <= ROUNDS; round++) {
            execute(session, "truncate t");
            load(round);
        }
    }

    @Test
    void parallelScansSeeRowsOfOneLoadEach() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Future<Integer> reader = threads.submit(() -> {
            int scans = 0;
            try (Session other = database.openSession()) {
                execute(other, "set debug_parallel_query = on");
                execute(other, "set parallel_scan_chunk_pages = 1");
                while (!done.get()) {
                    List<Object> row = execute(other,
                            "select count(*), count(distinct id), count(distinct v / 1000000), count(*) filter (where v % 1000000 <> id) from t").getFirst();
                    long count = ((Number) row.get(0)).longValue();
                    assertTrue(count <= ROWS, "rows: " + count);
                    assertEquals(count, ((Number) row.get(1)).longValue());
                    // A load is one statement: a scan may see part of one, never two.
                    assertTrue(((Number) row.get(2)).longValue() <= 1, "loads seen: " + row.get(2));
                    assertEquals(0L, ((Number) row.get(3)).longValue());
                    scans++;
                }
            }
            return scans;
        });
        truncateAndLoadRepeatedly();
        done.set(true);
        assertTrue(reader.get() > 0);
        assertEquals(List.of(List.of((long) ROWS, ROUNDS * 1000000 + 1)), execute(session, "select count(*), min(v) from t"));
    }

    @Test
    void pointLookupsFindTheirKeysRowOrNothing() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger lookups = new AtomicInteger();
        Future<Integer> reader = threads.submit(() -> {
            int found = 0;
            try (Session other = database.openSession()) {
                PreparedQuery lookup = other.prepare("select id, v from t where id = $1");
                for (int id = 1; !done.get(); id = id % ROWS + 1) {
                    List<List<Object>> rows;
                    try (Result result = lookup.execute(id)) {
                        rows = result.fetchAll();
                    }
                    assertTrue(rows.size() <= 1, rows.toString());
                    if (rows.size() == 1) {
                        assertEquals(id, ((Number) rows.getFirst().get(0)).intValue());
                        assertEquals(id, ((Number) rows.getFirst().get(1)).intValue() % 1000000);
                        found++;
                    }
                    lookups.incrementAndGet();
                }
            }
            return found;
        });
        // The truncates start once the lookups run (the first one plans the statement).
        while (lookups.get() == 0 && !reader.isDone()) {
            Thread.onSpinWait();
        }
        truncateAndLoadRepeatedly();
        done.set(true);
        assertTrue(reader.get() > 0);
    }

    @Test
    void writersNeverFailAndTheirKeysGoWithTheTruncate() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Future<List<Integer>> writer = threads.submit(() -> {
            List<Integer> inserted = new ArrayList<>();
            try (Session other = database.openSession()) {
                for (int id = ROWS + 1; !done.get(); id++) {
                    execute(other, "insert into t (id, v) values (" + id + ", " + id + ")");
                    inserted.add(id);
                }
            }
            return inserted;
        });
        truncateAndLoadRepeatedly();
        done.set(true);
        List<Integer> inserted = writer.get();
        assertTrue(!inserted.isEmpty());
        List<Object> summary = execute(session, "select count(*), count(distinct id), count(*) filter (where id > " + ROWS + ") from t").getFirst();
        assertEquals(summary.get(0), summary.get(1));
        assertEquals((long) ROWS, ((Number) summary.get(0)).longValue() - ((Number) summary.get(2)).longValue());
        // After one more truncate every key is free again.
        execute(session, "truncate t");
        execute(session, "insert into t (id, v) select g, g from generate_series(" + (ROWS + 1) + ", " + inserted.getLast() + ") g");
        assertEquals(List.of(List.of((long) inserted.size())), execute(session, "select count(*) from t"));
    }
}
