package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prepared single-row inserts and upserts take the executor-free path ({@link PointUpsertPlan}) and
 * change the table exactly as the general path: insert, DO UPDATE with excluded.* and expressions
 * over the existing row, a WHERE that skips, DO NOTHING, the errors (23502, 23505, 23514, 0A000,
 * 22001), now() and random() taking a new value per execution, a plan made stale by DDL, and
 * concurrent upserts of the same keys losing no update.
 */
class PointUpsertPlanTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(256L << 20).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private void run(String sql) {
        session.execute(sql).close();
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    private static String execute(PreparedQuery query, Object... parameters) {
        try (Result result = query.execute(parameters)) {
            return result.commandTag();
        }
    }

    private PointUpsertPlan fastPath(String sql) {
        PlanCache.CachedPlan plan = ((SqlSession) session).planFor(sql);
        return PointUpsertPlan.of((SqlSession) session, plan.catalogVersion(), plan.statement());
    }

    @Test
    void upsertsOnPlainAndPartitionedTablesChangeRowsAsTheGeneralPath() {
        run("create table test (id int primary key, info text, hits int not null)");
        run("create table p (id int primary key, info text, hits int not null) partition by hash (id) partitions 16");
        for (String table : List.of("test", "p")) {
            String sql = "insert into " + table + " values ($1, $2, 1) on conflict (id) do update set info = excluded.info, hits = "
                    + table + ".hits + 1 where " + table + ".info <> 'frozen'";
            assertNotNull(fastPath(sql));
            try (PreparedQuery upsert = session.prepare(sql)) {
                assertEquals("INSERT 0 1", execute(upsert, 1, "a"));
                assertEquals("INSERT 0 1", execute(upsert, 2, "b"));
                assertEquals("INSERT 0 1", execute(upsert, 1, "c"));
                assertEquals("INSERT 0 1", execute(upsert, 3, "frozen"));
                assertEquals("INSERT 0 0", execute(upsert, 3, "thawed"));
                assertEquals("INSERT 0 1", execute(upsert, 1, null));
                ParallaxException range = assertThrows(ParallaxException.class, () -> execute(upsert, 5_000_000_000L, "x"));
                assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, range.state());
                assertEquals("integer out of range", range.getMessage());
                ParallaxException count = assertThrows(ParallaxException.class, () -> execute(upsert, 4));
                assertEquals(SqlState.PROTOCOL_VIOLATION, count.state());
                assertEquals("INSERT 0 1", execute(upsert, "4", "from text"));
            }
            assertEquals(List.of(List.of(2, "b", 1), List.of(3, "frozen", 1), List.of(4, "from text", 1)),
                    rows("select * from " + table + " where info is not null order by id"));
            assertEquals(List.of(List.of(1, 3)), rows("select id, hits from " + table + " where info is null"));
        }
    }

    /**
     * A session with a temporary table plans against its own view of the catalog, whose version
     * moves with its temporary tables too: the fast path compares that version, not the shared
     * catalog's (it did, and a session that had made a temporary table never took it again).
     */
    @Test
    void sessionsWithTemporaryTablesKeepTheFastPath() {
        run("create table test (id int primary key, info text)");
        run("create temp table scratch (id int primary key, info text)");
        for (String table : List.of("test", "scratch")) {
            String sql = "insert into " + table + " values ($1, $2) on conflict (id) do update set info = excluded.info";
            PointUpsertPlan plan = fastPath(sql);
            assertNotNull(plan);
            assertTrue(plan.isValid(), table);
            try (PreparedQuery upsert = session.prepare(sql)) {
                assertEquals("INSERT 0 1", execute(upsert, 1, "a"));
                assertEquals("INSERT 0 1", execute(upsert, 1, "b"));
            }
            assertEquals(List.of(List.of(1, "b")), rows("select * from " + table));
        }
    }

    @Test
    void doNothingAndPlainInsertsAndTheirErrors() {
        run("create table p (id bigint primary key, name varchar(3)) partition by hash (id) partitions 4");
        try (PreparedQuery nothing = session.prepare("insert into p values ($1, $2) on conflict do nothing");
             PreparedQuery plain = session.prepare("insert into p values ($1, $2)")) {
            assertNotNull(fastPath("insert into p values ($1, $2)"));
            assertEquals("INSERT 0 1", execute(plain, 1L, "one"));
            assertEquals("INSERT 0 0", execute(nothing, 1L, "new"));
            assertEquals("INSERT 0 1", execute(nothing, 2L, "two"));
            ParallaxException duplicate = assertThrows(ParallaxException.class, () -> execute(plain, 2L, "xyz"));
            assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
            assertTrue(duplicate.getMessage().startsWith("duplicate key value violates unique constraint \"p_"), duplicate.getMessage());
            ParallaxException nullKey = assertThrows(ParallaxException.class, () -> execute(plain, null, "n"));
            assertEquals(SqlState.NOT_NULL_VIOLATION, nullKey.state());
            ParallaxException tooLong = assertThrows(ParallaxException.class, () -> execute(plain, 5L, "four"));
            assertEquals(SqlState.STRING_DATA_RIGHT_TRUNCATION, tooLong.state());
            assertEquals("value too long for type character varying(3)", tooLong.getMessage());
        }
        assertEquals(List.of(List.of(1L, "one"), List.of(2L, "two")), rows("select * from p order by id"));
        run("drop table p_3");
        try (PreparedQuery plain = session.prepare("insert into p values ($1, $2)")) {
            int missing = 0;
            for (long id = 10; id < 40; id++) {
                try {
                    execute(plain, id, null);
                } catch (ParallaxException noPartition) {
                    assertEquals(SqlState.CHECK_VIOLATION, noPartition.state());
                    assertEquals("no partition of relation \"p\" found for row", noPartition.getMessage());
                    missing++;
                }
            }
            assertTrue(missing > 0 && missing < 30, "rows without a partition: " + missing);
        }
    }

    @Test
    void anUpdateMayNotMoveTheRowToAnotherPartition() {
        run("create table p (id int primary key, info text) partition by hash (id) partitions 8");
        run("insert into p values (1, 'one')");
        try (PreparedQuery upsert = session.prepare("insert into p values ($1, 'x') on conflict (id) do update set id = p.id + $2")) {
            assertEquals("INSERT 0 1", execute(upsert, 1, 0));
            int moved = 0;
            for (int shift = 1; shift < 20; shift++) {
                try {
                    execute(upsert, 1, shift);
                    run("update p set id = 1");
                } catch (ParallaxException refused) {
                    assertEquals(SqlState.FEATURE_NOT_SUPPORTED, refused.state());
                    assertEquals("invalid ON UPDATE specification", refused.getMessage());
                    moved++;
                }
            }
            assertTrue(moved > 0, "no shift moved the row");
        }
        assertEquals(List.of(List.of(1, "one")), rows("select * from p"));
    }

    @Test
    void nowAndRandomTakeNewValuesPerExecutionAndDdlReplans() throws InterruptedException {
        run("create table t (id int primary key, info text, stamp timestamp)");
        String sql = "insert into t values ($1, md5(random()::text), now()) on conflict (id) do update set info = excluded.info, stamp = excluded.stamp";
        // The seed's upsert keeps the fast path although random() keeps its projection apart (VolatileProjectionFence).
        assertNotNull(fastPath(sql));
        try (PreparedQuery upsert = session.prepare(sql)) {
            execute(upsert, 1);
            List<List<Object>> first = rows("select info, stamp from t");
            Thread.sleep(2);
            execute(upsert, 1);
            List<List<Object>> second = rows("select info, stamp from t");
            assertEquals(32, ((String) second.getFirst().get(0)).length());
            assertTrue(!first.getFirst().get(0).equals(second.getFirst().get(0)), "md5(random()) repeated");
            assertTrue(!first.getFirst().get(1).equals(second.getFirst().get(1)), "now() repeated");
            run("create table other (a int)");
            // the stale plan is not used; the general path plans again and the statement still works
            execute(upsert, 2);
        }
        assertEquals(List.of(List.of(2L)), rows("select count(*) from t"));
        assertNull(fastPath("insert into t values (1, 'x', now()) returning id"));
    }

    /**
     * The fast path reaches a partition's storage and index share through arrays of its own
     * (TableChanges.acquirePartition), while the general path of the same thread reads them from the
     * catalog: statements of both kinds, on partitions of two tables whose unique constraints differ
     * in number, interleaved on one thread, each keep every constraint of the table they write; rows
     * with NULLs between rows without keep their values and NULLs exact.
     */
    @Test
    void fastAndGeneralPathsInterleavedOnPartitionsOfTablesWithDifferentConstraints() {
        run("create table p (id int primary key, info text, n int) partition by hash (id) partitions 8");
        run("create table q (id int primary key, code int, info text, unique (id, code)) partition by hash (id) partitions 4");
        try (PreparedQuery upsertP = session.prepare("insert into p values ($1, $2, $3) on conflict (id) do update set info = excluded.info, n = excluded.n");
             PreparedQuery upsertQ = session.prepare("insert into q values ($1, $2, $3) on conflict (id, code) do update set info = excluded.info")) {
            assertNotNull(fastPath("insert into p values ($1, $2, $3) on conflict (id) do update set info = excluded.info, n = excluded.n"));
            assertNotNull(fastPath("insert into q values ($1, $2, $3) on conflict (id, code) do update set info = excluded.info"));
            for (int id = 1; id <= 40; id++) {
                execute(upsertP, id, id % 3 == 0 ? null : "p" + id, id % 5 == 0 ? null : id);
                execute(upsertQ, id, 1000 + id, "q" + id);
                if (id % 4 == 0) {
                    run("update p set n = coalesce(n, 0) + 1 where id = " + (id - 1));
                    run("insert into q values (" + (100 + id) + ", " + (2000 + id) + ", 'general')");
                }
            }
            // An id another row holds with another code: the arbiter (id, code) finds no conflict, the primary key does.
            ParallaxException duplicate = assertThrows(ParallaxException.class, () -> execute(upsertQ, 1, 5, "clash"));
            assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
            assertEquals("INSERT 0 1", execute(upsertP, 7, "again", null));
            assertEquals("INSERT 0 1", execute(upsertQ, 7, 1007, "again"));
        }
        // NULL info: ids divisible by 3; NULL n: divisible by 5 but 15 and 35 (updated to 1), and 7 (upserted NULL again);
        // n = id + 1: the updated ids 3, 11, 19, 23, 27, 31, 39.
        assertEquals(List.of(List.of(40L, 40L, 27L, 33L, 7L)),
                rows("select count(*), count(distinct id), count(info), count(n), sum(case when n = id + 1 then 1 else 0 end) from p"));
        assertEquals(List.of(Arrays.asList(null, null)), rows("select info, n from p where id = 30"));
        assertEquals(List.of(Arrays.asList(null, 1)), rows("select info, n from p where id = 15"));
        assertEquals(List.of(Arrays.asList("again", null)), rows("select info, n from p where id = 7"));
        assertEquals(List.of(List.of(50L, 50L, 50L)), rows("select count(*), count(distinct id), count(distinct code) from q"));
        assertEquals(List.of(List.of(1007, "again")), rows("select code, info from q where id = 7"));
    }

    @Test
    void concurrentUpsertsOfTheSameKeysLoseNoUpdate() throws Exception {
        run("create table p (id int primary key, hits int) partition by hash (id) partitions 32");
        int threads = 4;
        int rounds = 400;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                done.add(pool.submit(() -> {
                    try (Session own = database.openSession();
                         PreparedQuery upsert = own.prepare("insert into p values ($1, 1) on conflict (id) do update set hits = p.hits + 1")) {
                        for (int round = 0; round < rounds; round++) {
                            upsert.execute(round % 10).close();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(List.of(List.of(10L, (long) threads * rounds)), rows("select count(*), sum(hits) from p"));
    }
    /**
     * Updates look their row up before they pin the table's row ids, and VACUUM renumbers the rows
     * of the pages it compacts meanwhile (the last page too, which the upserts append to): an
     * update whose row moved looks again, so every update lands on its own key's row.
     */
    @Test
    void concurrentUpsertsWhileVacuumMovesRowsLoseNoUpdate() throws Exception {
        run("create table t (id int primary key, hits int, pad text)");
        run("create table p (id int primary key, hits int, pad text) partition by hash (id) partitions 4");
        int keys = 50;
        int threads = 2;
        int rounds = 3000;
        for (String table : List.of("t", "p")) {
            run("insert into " + table + " select g, 1, repeat('x', g) from generate_series(1, " + keys + ") g");
            java.util.concurrent.atomic.AtomicBoolean upserting = new java.util.concurrent.atomic.AtomicBoolean(true);
            ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
            try {
                Future<Integer> vacuums = pool.submit(() -> {
                    int count = 0;
                    try (Session own = database.openSession()) {
                        while (upserting.get()) {
                            own.execute("vacuum " + table).close();
                            count++;
                        }
                    }
                    return count;
                });
                List<Future<?>> done = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    done.add(pool.submit(() -> {
                        try (Session own = database.openSession();
                             PreparedQuery upsert = own.prepare("insert into " + table + " values ($1, 1, 'new') "
                                     + "on conflict (id) do update set hits = " + table + ".hits + 1")) {
                            for (int round = 0; round < rounds; round++) {
                                upsert.execute(1 + round % keys).close();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get();
                }
                upserting.set(false);
                assertTrue(vacuums.get() > 0, table);
            } finally {
                pool.shutdown();
            }
            int expected = 1 + threads * rounds / keys;
            assertEquals(List.of(List.of((long) keys, (long) keys, (long) keys)),
                    rows("select count(*), count(distinct id), sum(case when hits = " + expected
                            + " and pad = repeat('x', id) then 1 else 0 end) from " + table), table);
        }
    }
}
