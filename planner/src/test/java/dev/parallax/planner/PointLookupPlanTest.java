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

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prepared point queries by unique key take the executor-free path ({@link PointLookupPlan}) and
 * answer exactly as the general path: plain and partitioned tables, integer, text and two-column
 * keys, NULL and missing keys, out-of-range parameters, and a plan made stale by DDL.
 */
class PointLookupPlanTest {
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

    private static List<List<Object>> rows(PreparedQuery query, Object... parameters) {
        try (Result result = query.execute(parameters)) {
            List<List<Object>> rows = result.fetchAll();
            assertEquals("SELECT " + rows.size(), result.commandTag());
            return rows;
        }
    }

    private PointLookupPlan fastPath(String sql) {
        PlanCache.CachedPlan plan = ((SqlSession) session).planFor(sql);
        return PointLookupPlan.of(database.catalog(), plan.catalogVersion(), plan.statement());
    }

    @Test
    void plainAndPartitionedTablesAnswerAlike() {
        run("create table test (id int primary key, info text, crt_time timestamp)");
        run("create table p (id int primary key, info text, crt_time timestamp) partition by hash (id) partitions 64");
        run("insert into test select g, 'i' || g, timestamp '2024-01-02 03:04:05' from generate_series(1, 2000) g");
        run("insert into p select g, 'i' || g, timestamp '2024-01-02 03:04:05' from generate_series(1, 2000) g");
        assertNotNull(fastPath("select * from test where id = ?"));
        assertNotNull(fastPath("select * from p where id = ?"));
        try (PreparedQuery single = session.prepare("select * from test where id = ?");
             PreparedQuery partitioned = session.prepare("select * from p where id = ?")) {
            for (int id : new int[] {1, 2, 999, 2000, 0, 2001, -5}) {
                List<List<Object>> expected = session.execute("select * from test where id = " + id).fetchAll();
                assertEquals(id >= 1 && id <= 2000 ? 1 : 0, expected.size());
                assertEquals(expected, rows(single, id));
                assertEquals(expected, rows(partitioned, id));
                assertEquals(expected, rows(partitioned, (long) id));
                assertEquals(expected, rows(partitioned, String.valueOf(id)));
            }
            assertEquals(List.of(), rows(single, (Object) null));
            assertEquals(List.of(), rows(partitioned, (Object) null));
            ParallaxException range = assertThrows(ParallaxException.class, () -> partitioned.execute(5_000_000_000L));
            assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, range.state());
            ParallaxException count = assertThrows(ParallaxException.class, () -> partitioned.execute(1, 2));
            assertEquals(SqlState.PROTOCOL_VIOLATION, count.state());
        }
    }

    @Test
    void textAndTwoColumnKeys() {
        run("create table t (k text primary key, v int) partition by hash (k) partitions 8");
        run("insert into t select 'key' || g, g from generate_series(1, 100) g");
        run("create table m (a int, b varchar(10), v int, primary key (a, b)) partition by hash (b, a) partitions 4");
        run("insert into m select g % 10, 'b' || (g % 7), g from generate_series(1, 70) g");
        assertNotNull(fastPath("select v from t where k = $1"));
        assertNotNull(fastPath("select v from m where b = $2 and a = $1"));
        try (PreparedQuery text = session.prepare("select v from t where k = $1");
             PreparedQuery twoColumns = session.prepare("select v from m where b = $2 and a = $1")) {
            assertEquals(List.of(List.of(42)), rows(text, "key42"));
            assertEquals(List.of(), rows(text, "key420"));
            assertEquals(List.of(List.of(3)), rows(twoColumns, 3, "b3"));
            assertEquals(List.of(List.of(66)), rows(twoColumns, 6, "b3"));
            assertEquals(List.of(List.of(53)), rows(twoColumns, 3, "b4"));
            assertEquals(List.of(), rows(twoColumns, 3, "b9"));
            assertEquals(List.of(), rows(twoColumns, 3, null));
        }
    }

    @Test
    void otherQueriesKeepTheGeneralPath() {
        run("create table t (id int primary key, v int)");
        assertNull(fastPath("select * from t where v = ?"));
        assertNull(fastPath("select count(*) from t where id = ?"));
        assertNull(fastPath("select * from t where id > ?"));
    }

    @Test
    void ddlMakesThePreparedLookupPlanAgain() {
        run("create table p (id int primary key, info text) partition by hash (id) partitions 4");
        run("insert into p values (1, 'one'), (2, 'two')");
        try (PreparedQuery point = session.prepare("select info from p where id = ?")) {
            assertEquals(List.of(List.of("one")), rows(point, 1));
            run("drop table p");
            run("create table p (id int primary key, info text) partition by hash (id) partitions 16");
            run("insert into p values (1, 'uno')");
            assertEquals(List.of(List.of("uno")), rows(point, 1));
            assertEquals(List.of(), rows(point, 2));
            assertTrue(fastPath("select info from p where id = ?") != null);
        }
    }

    /**
     * The partitioned lookup keeps each partition's tag and storage by ordinal: after dropping a
     * partition (its keys go with it), creating one in its place (a fresh tag and storage), VACUUM
     * FULL of a partition (rows renumbered), deletes and the table index's growth, every key still
     * reads its own row or none, through the fast path.
     */
    @Test
    void partitionedLookupFollowsPartitionChangesAndRewrites() {
        String sql = "select id, info from p where id = ?";
        run("create table p (id int primary key, info text) partition by hash (id) partitions 4");
        run("insert into p select g, 'v' || g from generate_series(1, 400) g");
        try (PreparedQuery point = session.prepare(sql)) {
            for (int id = 1; id <= 400; id++) {
                assertEquals(List.of(List.of(id, "v" + id)), rows(point, id));
            }
            assertNotNull(fastPath(sql));
            List<Integer> inDropped = ids("select id from p_3 order by id");
            run("drop table p_3");
            for (int id : inDropped) {
                assertEquals(List.of(), rows(point, id));
            }
            run("create table p_3 partition of p for values with (modulus 4, remainder 3)");
            assertEquals(List.of(), rows(point, inDropped.getFirst()));
            run("insert into p select g, 'w' || g from generate_series(1, 400) g where g in (" + joined(inDropped) + ")");
            for (int id = 1; id <= 400; id++) {
                assertEquals(List.of(List.of(id, (inDropped.contains(id) ? "w" : "v") + id)), rows(point, id));
            }
            run("delete from p where id % 3 = 0");
            run("vacuum full p_0");
            run("vacuum full p_3");
            // The index grows well past its first size while the plan is held.
            run("insert into p select g, 'g' || g from generate_series(401, 60000) g");
            for (int id = 1; id <= 400; id++) {
                List<List<Object>> expected = id % 3 == 0 ? List.of() : List.of(List.of(id, (inDropped.contains(id) ? "w" : "v") + id));
                assertEquals(expected, rows(point, id));
            }
            for (int id = 401; id <= 60000; id += 997) {
                assertEquals(List.of(List.of(id, "g" + id)), rows(point, id));
            }
            assertEquals(List.of(), rows(point, 60001));
            assertEquals(List.of(), rows(point, (Object) null));
            assertNotNull(fastPath(sql));
        }
    }

    private List<Integer> ids(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll().stream().map(row -> ((Number) row.getFirst()).intValue()).toList();
        }
    }

    private static String joined(List<Integer> ids) {
        return String.join(", ", ids.stream().map(String::valueOf).toList());
    }

    /**
     * Point queries racing upserts of the same keys from another session find each row every
     * time: the index entry of a key an upsert keeps moves to the row's new version only after the
     * version is published (it used to move before, and a query reading the entry then failed with
     * IndexOutOfBoundsException on a slot not published yet, within the first few hundred upserts).
     */
    @Test
    void pointQueriesDuringUpsertsOfTheirKeysFindEachRow() throws Exception {
        run("create table p (id int primary key, n int not null) partition by hash (id) partitions 4");
        run("insert into p select g, 0 from generate_series(1, 100) g");
        AtomicBoolean upserting = new AtomicBoolean(true);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<Long> writer = executor.submit(() -> {
            long upserts = 0;
            try (Session own = database.openSession();
                 PreparedQuery upsert = own.prepare("insert into p values ($1, 1) on conflict (id) do update set n = p.n + 1")) {
                while (upserting.get()) {
                    upsert.execute((int) (upserts % 100) + 1).close();
                    upserts++;
                }
            }
            return upserts;
        });
        long upserts;
        try (PreparedQuery point = session.prepare("select id from p where id = $1")) {
            for (int round = 0; round < 20_000; round++) {
                int id = round % 100 + 1;
                assertEquals(List.of(List.of(id)), rows(point, id), "round " + round);
            }
        } finally {
            upserting.set(false);
            upserts = writer.get();
            executor.shutdown();
        }
        try (Result result = session.execute("select count(*), sum(n) from p")) {
            assertEquals(List.of(List.of(100L, upserts)), result.fetchAll());
        }
    }

    /**
     * The point read of one row (PagedTableStorage.readPublishedRow) returns every storage kind and
     * NULL exactly as a scan does, NULLs of variable-width columns included, on plain and
     * partitioned tables; an update rewriting a row and a delete are seen by the next execution.
     */
    @Test
    void everyColumnKindAndNullReadsAsTheScanReadsIt() {
        String columns = "(id int primary key, s smallint, b boolean, l bigint, r real, d double precision, n numeric(10, 2),"
                + " dt date, ts timestamp, t text, v varchar(5))";
        run("create table k " + columns);
        run("create table kp " + columns + " partition by hash (id) partitions 8");
        for (String table : List.of("k", "kp")) {
            run("insert into " + table + " select g, (g * 7)::smallint, g % 2 = 0, g * 100000000000, g / 4.0, g / 3.0, g * 1.25,"
                    + " date '2024-01-01' + g, (date '2024-01-01' + g)::timestamp, 'text ' || g, 'v' || (g % 1000)"
                    + " from generate_series(1, 300) g");
            // Some rows with NULL in every nullable column, others with NULL text only.
            run("update " + table + " set s = null, b = null, l = null, r = null, d = null, n = null, dt = null, ts = null, t = null, v = null"
                    + " where id % 10 = 3");
            run("update " + table + " set t = null where id % 10 = 7");
            run("update " + table + " set t = '' where id % 10 = 9");
            try (PreparedQuery point = session.prepare("select * from " + table + " where id = $1");
                 PreparedQuery reordered = session.prepare("select v, t, id, b from " + table + " where id = $1")) {
                assertNotNull(fastPath("select * from " + table + " where id = $1"));
                java.util.Map<Object, List<Object>> scanned = new java.util.HashMap<>();
                for (List<Object> row : session.execute("select * from " + table).fetchAll()) {
                    scanned.put(row.getFirst(), row);
                }
                assertEquals(300, scanned.size());
                for (int id = 1; id <= 300; id++) {
                    List<Object> expected = scanned.get(id);
                    assertEquals(List.of(expected), rows(point, id), table + " id " + id);
                    assertEquals(List.of(java.util.Arrays.asList(expected.get(10), expected.get(9), id, expected.get(2))),
                            rows(reordered, id), table + " id " + id);
                }
                assertEquals(java.util.Arrays.asList(3, null, null, null, null, null, null, null, null, null, null), rows(point, 3).getFirst());
                assertEquals(java.util.Arrays.asList("v17", null, 17, false), rows(reordered, 17).getFirst());
                assertEquals(java.util.Arrays.asList("v19", "", 19, false), rows(reordered, 19).getFirst());
                run("update " + table + " set t = 'changed', s = null where id = 20");
                run("delete from " + table + " where id = 21");
                assertEquals(java.util.Arrays.asList("v20", "changed", 20, true), rows(reordered, 20).getFirst());
                assertEquals(List.of(), rows(point, 21));
                assertEquals(List.of(), rows(point, 301));
                assertEquals(List.of(), rows(point, (Object) null));
            }
        }
    }

    /**
     * Point queries racing updates that rewrite whole rows (two columns kept equal), deletes and
     * re-inserts of the same keys, and updates moving a key away and back, on a plain and a
     * partitioned table: every answer is either no row or one whole row of the key asked for,
     * never a torn row or another key's row; and once the writer stopped, every key reads again.
     */
    @Test
    void pointQueriesDuringDeletesAndRewritesSeeWholeRowsOrNone() throws Exception {
        run("create table w (id int primary key, a int not null, b int not null, t text)");
        run("create table wp (id int primary key, a int not null, b int not null, t text) partition by hash (id) partitions 4");
        for (String table : List.of("w", "wp")) {
            run("insert into " + table + " select g, 0, 0, 'x0' from generate_series(1, 50) g");
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            Future<Long> writer = executor.submit(() -> {
                long steps = 0;
                try (Session own = database.openSession();
                     PreparedQuery rewrite = own.prepare("update " + table + " set a = a + 1, b = b + 1, t = 'x' || (a + 1) where id = $1");
                     PreparedQuery delete = own.prepare("delete from " + table + " where id = $1");
                     PreparedQuery insert = own.prepare("insert into " + table + " values ($1, 0, 0, 'x0')");
                     PreparedQuery moveAway = own.prepare("update " + table + " set id = id + 1000 where id = $1");
                     PreparedQuery moveBack = own.prepare("update " + table + " set id = id - 1000 where id = $1")) {
                    while (writing.get()) {
                        int id = (int) (steps % 50) + 1;
                        switch ((int) (steps / 50 % 3)) {
                            case 0 -> rewrite.execute(id).close();
                            case 1 -> {
                                delete.execute(id).close();
                                insert.execute(id).close();
                            }
                            default -> {
                                moveAway.execute(id).close();
                                moveBack.execute(id + 1000).close();
                            }
                        }
                        steps++;
                    }
                }
                return steps;
            });
            try (PreparedQuery point = session.prepare("select id, a, b, t from " + table + " where id = $1")) {
                for (int round = 0; round < 20_000; round++) {
                    int id = round % 50 + 1;
                    List<List<Object>> found = rows(point, id);
                    assertTrue(found.size() <= 1, table + " round " + round);
                    if (found.size() == 1) {
                        List<Object> row = found.getFirst();
                        assertEquals(id, row.get(0), table + " round " + round);
                        assertEquals(row.get(1), row.get(2), table + " round " + round);
                        assertEquals("x" + row.get(1), row.get(3), table + " round " + round);
                    }
                }
            } finally {
                writing.set(false);
                writer.get();
                executor.shutdown();
            }
            try (PreparedQuery point = session.prepare("select id from " + table + " where id = $1")) {
                for (int id = 1; id <= 50; id++) {
                    assertEquals(List.of(List.of(id)), rows(point, id), table + " id " + id);
                }
            }
        }
    }

    /**
     * Point queries on a partitioned table race VACUUM compacting the partitions their rows are on
     * (even keys die and come back, so every page has dead rows and every compaction moves odd
     * ones, which nobody writes): a lookup whose row id went stale while it read re-reads, so each
     * answer is the key's own row (without the re-read, keys read other keys' rows within a few
     * rounds). The partitioned lookup reads a partition's compaction counters inside the index
     * lookup ({@link dev.parallax.engine.index.BeforeProbe}).
     */
    @Test
    void partitionedPointQueriesDuringVacuumReadTheirOwnRow() throws Exception {
        int keys = 4000;
        run("create table vp (id int primary key, a int not null, t text) partition by hash (id) partitions 4");
        run("insert into vp select g, g * 3, 'row ' || g from generate_series(0, " + (keys - 1) + ") g");
        AtomicBoolean reading = new AtomicBoolean(true);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<Long> reader = executor.submit(() -> {
            long lookups = 0;
            try (Session own = database.openSession();
                 PreparedQuery point = own.prepare("select id, a, t from vp where id = $1")) {
                int id = 1;
                while (reading.get()) {
                    List<List<Object>> found = rows(point, id);
                    assertEquals(List.of(List.of(id, id * 3, "row " + id)), found, "key " + id);
                    lookups++;
                    id = (id + 2) % keys;
                }
            }
            return lookups;
        });
        try {
            for (int round = 0; round < 24; round++) {
                int remainder = round % 4 * 2;
                run("delete from vp where id % 8 = " + remainder);
                run("vacuum vp");
                run("insert into vp select g, g * 3, 'row ' || g from generate_series(" + remainder + ", " + (keys - 1) + ", 8) g");
            }
        } finally {
            reading.set(false);
        }
        assertTrue(reader.get() > 0);
        executor.shutdown();
        try (Result result = session.execute("select count(*), sum(a) from vp")) {
            assertEquals(List.of(List.of((long) keys, 3L * keys * (keys - 1) / 2)), result.fetchAll());
        }
    }

    /**
     * A point query hands the result object of its previous execution out again once that was
     * closed: closing the old reference again (an idempotent close, after the next execution took
     * the object) leaves the new execution's row to be read, and a result still open when the query
     * runs again is not taken over.
     */
    @Test
    void resultsAreReusedOnlyOnceClosed() {
        run("create table r (id int primary key, info text)");
        run("insert into r values (1, 'one'), (2, 'two'), (3, null)");
        try (PreparedQuery point = session.prepare("select info from r where id = $1")) {
            Result first = point.execute(1);
            assertEquals(List.of(List.of("one")), first.fetchAll());
            first.close();
            Result second = point.execute(2);
            first.close();
            assertEquals(List.of(List.of("two")), second.fetchAll());
            assertEquals("SELECT 1", second.commandTag());
            second.close();
            Result open = point.execute(3);
            Result other = point.execute(4);
            assertTrue(open != other);
            assertEquals(List.of(), other.fetchAll());
            assertEquals("SELECT 0", other.commandTag());
            other.close();
            open.close();
            assertEquals(java.util.Collections.singletonList(java.util.Collections.singletonList(null)), rows(point, 3));
        }
    }
}
