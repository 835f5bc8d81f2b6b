package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.PagedTableStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UPDATE, DELETE and INSERT ... ON CONFLICT through sessions: command tags, prepared statements,
 * point lookups, no partial effect, the dead versions left for VACUUM, and concurrent writers and
 * readers checked exactly.
 */
class ModifyStatementsTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(512L << 20).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private String tag(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            result.fetchAll();
            return result.commandTag();
        }
    }

    private List<List<Object>> rows(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            return result.fetchAll();
        }
    }

    @Test
    void commandTagsCountTheRowsChanged() {
        tag(session, "create table t (id int primary key, n int)");
        assertEquals("INSERT 0 3", tag(session, "insert into t values (1, 1), (2, 2), (3, 3) on conflict (id) do nothing"));
        assertEquals("INSERT 0 2", tag(session, "insert into t values (3, 30), (4, 4), (5, 5) on conflict (id) do nothing"));
        assertEquals("INSERT 0 2", tag(session, "insert into t values (1, 10), (6, 6) on conflict (id) do update set n = excluded.n"));
        assertEquals("UPDATE 6", tag(session, "update t set n = n + 1"));
        assertEquals("UPDATE 0", tag(session, "update t set n = 0 where id = 42"));
        assertEquals("DELETE 1", tag(session, "delete from t where id = 6"));
        assertEquals("UPDATE 2", tag(session, "update t set n = -n where id < 3 returning id"));
        assertEquals("DELETE 2", tag(session, "delete from t where id > 3 returning *"));
        assertEquals("INSERT 0 1", tag(session, "insert into t values (9, 9) returning n"));
        assertEquals(List.of(List.of(1, -11), List.of(2, -3), List.of(3, 4), List.of(9, 9)), rows(session, "select * from t order by id"));
    }

    @Test
    void preparedPointStatementsGoThroughTheIndexWithNewParametersEachTime() {
        tag(session, "create table t (id int primary key, n int not null, info text)");
        tag(session, "insert into t select g, 0, 'x' from generate_series(1, 1000) g");
        List<String> plan = rows(session, "explain update t set n = 1 where id = 5").stream().map(row -> (String) row.getFirst()).toList();
        assertEquals("Update on t  (cost=0.00..0.00 rows=0 width=0)", plan.getFirst().replaceAll("\\(cost=[^)]*\\)", "(cost=0.00..0.00 rows=0 width=0)"));
        assertTrue(plan.contains("  Index Lookup: t_pkey"), plan.toString());
        try (PreparedQuery update = session.prepare("update t set n = n + $2 where id = $1");
             PreparedQuery upsert = session.prepare("insert into t values ($1, $2, 'new') on conflict (id) do update set n = t.n + excluded.n, info = excluded.info");
             PreparedQuery delete = session.prepare("delete from t where id = $1")) {
            for (int round = 0; round < 3; round++) {
                for (int id = 1; id <= 10; id++) {
                    try (Result result = update.execute(id, id)) {
                        assertEquals("UPDATE 1", result.commandTag());
                    }
                    upsert.execute(id + 995, 1).close();
                }
            }
            try (Result result = delete.execute(1)) {
                assertEquals("DELETE 1", result.commandTag());
            }
            try (Result result = delete.execute(1)) {
                assertEquals("DELETE 0", result.commandTag());
            }
        }
        assertEquals(List.of(List.of(19L, 192L)), rows(session, "select count(*), sum(n) from t where id <= 10 or id > 995"));
        assertEquals(List.of(List.of(1005, 3, "new")), rows(session, "select * from t where id = 1005"));
        assertEquals(List.of(List.of(1000, 3, "new")), rows(session, "select * from t where id = 1000"));
    }

    @Test
    void aFailingStatementLeavesTableAndIndexesAsTheyWere() {
        tag(session, "create table t (id int primary key, code text unique, n int not null)");
        tag(session, "insert into t select g, 'c' || g, g from generate_series(1, 500) g");
        List<List<Object>> before = rows(session, "select * from t order by id");
        // Row 250 would take code c1 from row 1: 23505 after 249 rows were already changed.
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> session.execute("update t set code = 'c' || (id - 249), n = n + 1 where id >= 250").close());
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        ParallaxException notNull = assertThrows(ParallaxException.class,
                () -> session.execute("update t set n = case when id = 400 then null else n end").close());
        assertEquals(SqlState.NOT_NULL_VIOLATION, notNull.state());
        ParallaxException twice = assertThrows(ParallaxException.class, () -> session.execute(
                "insert into t values (1, 'z1', 1), (501, 'z2', 1), (1, 'z3', 1) on conflict (id) do update set n = 0").close());
        assertEquals(SqlState.CARDINALITY_VIOLATION, twice.state());
        assertEquals(before, rows(session, "select * from t order by id"));
        // The indexes still map every old key, and no key of the failed statements.
        assertEquals("INSERT 0 0", tag(session, "insert into t values (1, 'c1', 0), (501, 'c250', 0) on conflict do nothing"));
        assertEquals("INSERT 0 1", tag(session, "insert into t values (502, 'z2', 0) on conflict do nothing"));
        assertEquals(List.of(List.of(250)), rows(session, "select id from t where code = 'c250'"));
    }

    @Test
    void updatesLeaveDeadVersionsCountedForVacuum() {
        tag(session, "create table t (id int primary key, n int)");
        tag(session, "insert into t select g, g from generate_series(1, 100) g");
        PagedTableStorage storage = (PagedTableStorage) database.catalog().table("t").storage();
        tag(session, "update t set n = n + 1 where id <= 10");
        tag(session, "delete from t where id > 95");
        tag(session, "insert into t values (1, 0) on conflict (id) do update set n = 0");
        assertEquals(95, storage.rowCount());
        assertEquals(16, storage.deadRowCount());
        int deadSlots = 0;
        for (int page = 0; page < storage.pageCount(); page++) {
            deadSlots += storage.pageDeletedRows(page);
        }
        assertEquals(16, deadSlots);
        assertEquals(List.of(List.of(95L, 5050L + 10 - 490 - 2)), rows(session, "select count(*), sum(n) from t"));
        // VACUUM reclaims them; the index follows the moved rows, so point updates still find them.
        tag(session, "vacuum t");
        assertEquals(0, storage.deadRowCount());
        assertEquals("UPDATE 1", tag(session, "update t set n = 100 where id = 50"));
        assertEquals("INSERT 0 1", tag(session, "insert into t values (95, 0) on conflict (id) do update set n = t.n + 1"));
        assertEquals(List.of(List.of(95L, 5050L + 10 - 490 - 2 + 50 + 1)), rows(session, "select count(*), sum(n) from t"));
    }

    @Test
    void concurrentUpsertsOfTheSameKeysLoseNoIncrementAndStoreEachKeyOnce() throws Exception {
        tag(session, "create table counters (id int primary key, n int not null)");
        int threads = 4;
        int perThread = 3000;
        int keys = 50;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            int offset = thread;
            futures.add(executor.submit(() -> {
                try (Session own = database.openSession();
                     PreparedQuery upsert = own.prepare(
                             "insert into counters values ($1, 1) on conflict (id) do update set n = counters.n + excluded.n")) {
                    start.await();
                    for (int iteration = 0; iteration < perThread; iteration++) {
                        upsert.execute((iteration + offset) % keys).close();
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get();
        }
        executor.shutdown();
        assertEquals(List.of(List.of((long) keys, (long) threads * perThread, (long) keys)),
                rows(session, "select count(*), sum(n), count(distinct id) from counters"));
        assertEquals(List.of(List.of(threads * perThread / keys)), rows(session, "select distinct n from counters"));
        assertEquals(keys, database.catalog().table("counters").uniqueConstraints().getFirst().index().size());
    }

    @Test
    void concurrentUpdatesAndDeletesAreNeitherLostNorDoubled() throws Exception {
        tag(session, "create table t (id int primary key, n int not null)");
        tag(session, "insert into t select g, 0 from generate_series(1, 200) g");
        int threads = 3;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            futures.add(executor.submit(() -> {
                try (Session own = database.openSession();
                     PreparedQuery point = own.prepare("update t set n = n + 1 where id = $1")) {
                    for (int round = 0; round < 20; round++) {
                        own.execute("update t set n = n + 1000").close();
                        for (int id = 1; id <= 200; id += 7) {
                            point.execute(id).close();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        executor.shutdown();
        long pointUpdates = (long) threads * 20 * ((200 + 6) / 7);
        assertEquals(List.of(List.of(200L, 200L * threads * 20 * 1000 + pointUpdates)), rows(session, "select count(*), sum(n) from t"));
    }

    @Test
    void concurrentUpdatesReadingOtherTablesAndSubqueriesAreNeitherLostNorDoubled() throws Exception {
        tag(session, "create table t (id int primary key, n int not null)");
        tag(session, "create table steps (k int, step int)");
        tag(session, "insert into t select g, 0 from generate_series(1, 200) g");
        // Odd ids join two equal step rows: each is still updated once per statement.
        tag(session, "insert into steps values (0, 1), (1, 2), (1, 2)");
        int threads = 3;
        int rounds = 20;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            futures.add(executor.submit(() -> {
                try (Session own = database.openSession();
                     PreparedQuery point = own.prepare("update t set n = n + 1 where id = $1")) {
                    for (int round = 0; round < rounds; round++) {
                        own.execute("update t set n = n + steps.step from steps where steps.k = t.id % 2").close();
                        own.execute("update t set n = n + 1000 where id in (select id from t where id % 5 = 0)").close();
                        for (int id = 1; id <= 200; id += 7) {
                            point.execute(id).close();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        executor.shutdown();
        long statements = (long) threads * rounds;
        long expected = statements * (100 * 1 + 100 * 2) + statements * 40 * 1000 + statements * ((200 + 6) / 7);
        assertEquals(List.of(List.of(200L, expected)), rows(session, "select count(*), sum(n) from t"));
    }

    @Test
    void scansRunningDuringUpsertsSeeEachRowExactlyOnce() throws Exception {
        tag(session, "create table t (id int primary key, info text, n int)");
        int rowCount = 20_000;
        tag(session, "insert into t select g, md5(g::text), 0 from generate_series(1, " + rowCount + ") g");
        long idSum = (long) rowCount * (rowCount + 1) / 2;
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService executor = Executors.newFixedThreadPool(1);
        Future<Integer> writer = executor.submit(() -> {
            int upserts = 0;
            try (Session own = database.openSession();
                 PreparedQuery upsert = own.prepare(
                         "insert into t values ($1, md5(random()::text), 1) on conflict (id) do update set info = excluded.info, n = t.n + 1")) {
                java.util.Random random = new java.util.Random(7);
                while (!stop.get()) {
                    upsert.execute(1 + random.nextInt(rowCount)).close();
                    upserts++;
                }
            }
            return upserts;
        });
        try (Session reader = database.openSession()) {
            tag(reader, "set parallel_setup_cost = 0");
            tag(reader, "set parallel_tuple_cost = 0");
            tag(reader, "set min_parallel_table_scan_size = 0");
            for (int scan = 0; scan < 30; scan++) {
                assertEquals(List.of(List.of((long) rowCount, idSum)), rows(reader, "select count(*), sum(id) from t"));
                assertEquals(List.of(List.of((long) rowCount)), rows(reader, "select count(*) from t where length(info) = 32"));
            }
        } finally {
            stop.set(true);
        }
        int upserts = writer.get();
        executor.shutdown();
        assertTrue(upserts > 0);
        assertEquals(List.of(List.of((long) rowCount, idSum, (long) upserts)), rows(session, "select count(*), sum(id), sum(n) from t"));
    }

    @Test
    void aBareParameterInSetTakesTheColumnsType() {
        tag(session, "create table typed (id int primary key, v varchar(3), c char(2), n numeric(5,2), b bigint, d date, flag boolean)");
        tag(session, "insert into typed values (1, 'a', 'x', 1, 1, date '2024-01-01', false)");
        try (dev.parallax.PreparedQuery update = session.prepare(
                "update typed set v = $1, c = $2, n = $3, b = $4, d = $5, flag = $6 where id = $7")) {
            assertEquals(List.of("TEXT", "TEXT", "DECIMAL", "BIGINT", "DATE", "BOOLEAN", "INTEGER"),
                    update.parameterTypes().stream().map(type -> type.kind().name()).toList());
            assertEquals(dev.parallax.engine.type.DataType.decimal(5, 2), update.parameterTypes().get(2));
            try (dev.parallax.Result result = update.execute("ab", "y", "1.234", 5_000_000_000L, "2024-02-29", true, 1)) {
                assertEquals("UPDATE 1", result.commandTag());
            }
            assertEquals(List.of(List.of(1, "ab", "y ", new java.math.BigDecimal("1.23"), 5_000_000_000L,
                    java.time.LocalDate.of(2024, 2, 29), true)), rows(session, "select * from typed"));
            // The column's length is still checked by the assignment, as for any value.
            ParallaxException tooLong = assertThrows(ParallaxException.class,
                    () -> update.execute("abcd", "y", "1", 1L, "2024-01-01", true, 1));
            assertEquals(SqlState.STRING_DATA_RIGHT_TRUNCATION, tooLong.state());
        }
        try (dev.parallax.PreparedQuery upsert = session.prepare(
                "insert into typed (id, v) values ($1, 'new') on conflict (id) do update set v = $2")) {
            try (dev.parallax.Result result = upsert.execute(1, "up")) {
                assertEquals("INSERT 0 1", result.commandTag());
            }
        }
        assertEquals(List.of(List.of("up")), rows(session, "select v from typed"));
    }
}
