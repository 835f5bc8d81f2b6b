package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
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

/**
 * UPDATE, DELETE and INSERT ... ON CONFLICT on hash-partitioned tables through sessions: prepared
 * statements pruned by their parameters, rows moving between partitions, all-or-nothing across
 * partitions, a thousand partitions in one statement, and concurrent writers checked exactly.
 */
class PartitionedModifyStatementsTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2));
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

    private String tag(PreparedQuery query, Object... parameters) {
        try (Result result = query.execute(parameters)) {
            result.fetchAll();
            return result.commandTag();
        }
    }

    /** Keys in the partitions' unique indexes, summed: equal to the row count when every key is indexed once. */
    private long indexedKeys(String tableName) {
        long keys = 0;
        for (Table partition : database.catalog().table(tableName).partitionRouter().partitions()) {
            keys += partition.uniqueConstraints().getFirst().index().size();
        }
        return keys;
    }

    @Test
    void preparedStatementsPruneByTheirParametersAndMoveRows() {
        tag(session, "create table t (id int primary key, n int not null, info text) partition by hash (id) partitions 16");
        tag(session, "insert into t select g, 0, 'x' from generate_series(1, 1000) g");
        try (PreparedQuery update = session.prepare("update t set n = n + $2 where id = $1");
             PreparedQuery updateTwo = session.prepare("update t set n = n + 1 where id in ($1, $2)");
             PreparedQuery move = session.prepare("update t set id = $2::int where id = $1 returning id, n");
             PreparedQuery upsert = session.prepare("insert into t values ($1, $2, 'new') on conflict (id) do update set n = t.n + excluded.n, info = excluded.info");
             PreparedQuery delete = session.prepare("delete from t where id = $1")) {
            for (int round = 0; round < 3; round++) {
                for (int id = 1; id <= 10; id++) {
                    assertEquals("UPDATE 1", tag(update, id, id));
                    assertEquals("UPDATE 2", tag(updateTwo, id + 100, id + 200));
                    assertEquals("INSERT 0 1", tag(upsert, id + 995, 1));
                }
            }
            try (Result moved = move.execute(7, 5007)) {
                assertEquals(List.of(List.of(5007, 21)), moved.fetchAll());
            }
            assertEquals("UPDATE 0", tag(move, 7, 6007));
            assertEquals("DELETE 1", tag(delete, 1));
            assertEquals("DELETE 0", tag(delete, 1));
            ParallaxException duplicate = assertThrows(ParallaxException.class, () -> tag(move, 2, 3));
            assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        }
        // 1000 rows: 1 deleted, 5 new (1001..1005), 7 moved to 5007.
        assertEquals(List.of(List.of(1004L, 3 * 55L - 3 + 60 + 3 * 10L)), rows(session, "select count(*), sum(n) from t"));
        assertEquals(List.of(List.of(5007, 21, "x")), rows(session, "select * from t where id = 5007"));
        assertEquals(List.of(), rows(session, "select * from t where id = 7"));
        assertEquals(List.of(List.of(1005, 3, "new")), rows(session, "select * from t where id = 1005"));
        assertEquals(1004, indexedKeys("t"));
    }

    @Test
    void aStatementFailingInOnePartitionChangesNoPartition() {
        tag(session, "create table t (id int primary key, code text, n int not null, unique (id, code)) partition by hash (id) partitions 8");
        tag(session, "insert into t select g, 'c' || g, g from generate_series(1, 300) g");
        List<List<Object>> before = rows(session, "select * from t order by id");
        // Rows 1..150 move to id + 150 (most to other partitions); 151..300 are taken: 23505, and the rows
        // already placed in other partitions must vanish again.
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> session.execute("update t set id = id + 150 where id <= 150").close());
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        ParallaxException notNull = assertThrows(ParallaxException.class,
                () -> session.execute("update t set n = case when id = 250 then null else n + 1 end").close());
        assertEquals(SqlState.NOT_NULL_VIOLATION, notNull.state());
        ParallaxException collision = assertThrows(ParallaxException.class,
                () -> session.execute("update t set id = 300 where id in (10, 20, 30)").close());
        assertEquals(SqlState.UNIQUE_VIOLATION, collision.state());
        assertEquals(before.size(), rows(session, "select * from t order by id").size());
        assertEquals(before, rows(session, "select * from t order by id"));
        assertEquals(300, indexedKeys("t"));
        // The indexes still map every old key and no new one.
        assertEquals("INSERT 0 0", tag(session, "insert into t values (1, 'z', 0), (300, 'z', 0) on conflict (id) do nothing"));
        assertEquals("INSERT 0 1", tag(session, "insert into t values (1300, 'z', 0) on conflict (id) do nothing"));
    }

    @Test
    void aThousandPartitionsChangeInOneStatement() {
        tag(session, "create table big (id int primary key, n int) partition by hash (id) partitions 1024");
        tag(session, "insert into big select g, 0 from generate_series(1, 5000) g");
        assertEquals("UPDATE 5000", tag(session, "update big set n = n + 1"));
        assertEquals("UPDATE 5000", tag(session, "update big set id = id + 100000"));
        assertEquals("INSERT 0 5000", tag(session, "insert into big select g + 100000, 1 from generate_series(1, 5000) g "
                + "on conflict (id) do update set n = big.n + excluded.n"));
        assertEquals("DELETE 2500", tag(session, "delete from big where id % 2 = 0"));
        assertEquals(List.of(List.of(2500L, 5000L, 100001, 104999)), rows(session, "select count(*), sum(n), min(id), max(id) from big"));
        assertEquals(List.of(List.of(100001, 2)), rows(session, "select * from big where id = 100001"));
        assertEquals(2500, indexedKeys("big"));
    }

    @Test
    void concurrentUpsertsOfTheSameKeysLoseNoIncrementAndStoreEachKeyOnce() throws Exception {
        tag(session, "create table counters (id int primary key, n int not null) partition by hash (id) partitions 8");
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
        assertEquals(keys, indexedKeys("counters"));
    }

    @Test
    void rowsMovingBetweenPartitionsDuringUpdatesLoseNoUpdate() throws Exception {
        tag(session, "create table t (id int primary key, n int not null) partition by hash (id) partitions 8");
        tag(session, "insert into t select g, 0 from generate_series(1, 200) g");
        int updaters = 2;
        int rounds = 30;
        ExecutorService executor = Executors.newFixedThreadPool(updaters + 1);
        List<Future<?>> futures = new ArrayList<>();
        for (int thread = 0; thread < updaters; thread++) {
            futures.add(executor.submit(() -> {
                try (Session own = database.openSession();
                     PreparedQuery point = own.prepare("update t set n = n + 1000 where id = $1 or id = -$1")) {
                    for (int round = 0; round < rounds; round++) {
                        own.execute("update t set n = n + 1").close();
                        for (int id = 1; id <= 200; id += 13) {
                            point.execute(id).close();
                        }
                    }
                }
                return null;
            }));
        }
        // A mover sends rows to the negative key (another partition, mostly) and back.
        futures.add(executor.submit(() -> {
            try (Session own = database.openSession();
                 PreparedQuery move = own.prepare("update t set id = -id where id = $1")) {
                for (int round = 0; round < rounds; round++) {
                    for (int id = 1; id <= 200; id += 3) {
                        assertEquals("UPDATE 1", tag(move, id));
                        assertEquals("UPDATE 1", tag(move, -id));
                    }
                }
            }
            return null;
        }));
        for (Future<?> future : futures) {
            future.get();
        }
        executor.shutdown();
        long pointUpdates = (long) updaters * rounds * ((200 + 12) / 13);
        assertEquals(List.of(List.of(200L, 200L * 201 / 2, (long) updaters * rounds * 200 + pointUpdates * 1000)),
                rows(session, "select count(*), sum(id), sum(n) from t"));
        assertEquals(200, indexedKeys("t"));
        assertEquals(List.of(List.of(200L)), rows(session, "select count(*) from t where id between 1 and 200 and id = id"));
    }

    /**
     * PostgreSQL's statement snapshot: a query over all partitions sees every row exactly once
     * while another session moves rows between partitions (a moved row dies in one partition and
     * appears in another; a scan must see neither both versions nor none). With the partitions'
     * scans opened one after the other, about 2% of the rounds saw a row twice or not at all.
     */
    @Test
    void scansSeeEachRowOnceWhileRowsMoveBetweenPartitions() throws Exception {
        tag(session, "create table t (id int primary key, n int not null) partition by hash (id) partitions 8");
        tag(session, "insert into t select g, 0 from generate_series(1, 200) g");
        AtomicBoolean moving = new AtomicBoolean(true);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<?> mover = executor.submit(() -> {
            try (Session own = database.openSession();
                 PreparedQuery move = own.prepare("update t set id = -id where id = $1")) {
                while (moving.get()) {
                    for (int id = 1; id <= 200; id += 7) {
                        assertEquals("UPDATE 1", tag(move, id));
                        assertEquals("UPDATE 1", tag(move, -id));
                    }
                }
            }
            return null;
        });
        try {
            List<List<Object>> expected = List.of(List.of(200L, 200L * 201 / 2));
            for (int round = 0; round < 300; round++) {
                assertEquals(expected, rows(session, "select count(*), sum(abs(id)) from t"), "round " + round);
            }
        } finally {
            moving.set(false);
            mover.get();
            executor.shutdown();
        }
    }
}
