package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.memory.MemoryTag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PRIMARY KEY and UNIQUE through a session: the indexes CREATE TABLE builds, PostgreSQL's errors, memory on DROP. */
class UniqueConstraintCommandsTest extends SessionCommandsTest {
    @Test
    void createTableBuildsOneIndexPerKeyPrimaryKeyFirstWithPostgresNames() {
        run("create table t (a int unique, b text, c bigint, unique (b, c), primary key (c), unique (a), constraint named unique (b))");
        Table table = database.catalog().table("t");
        List<UniqueConstraint> constraints = table.uniqueConstraints();
        assertEquals(List.of("t_pkey", "t_a_key", "t_b_c_key", "named"), constraints.stream().map(UniqueConstraint::name).toList());
        assertTrue(constraints.getFirst().primaryKey());
        assertFalse(constraints.get(1).primaryKey());
        assertArrayEquals(new int[] {1, 2}, constraints.get(2).keyColumns());
        assertTrue(table.columns().get(2).notNull());
        assertFalse(table.columns().get(0).notNull());
    }

    @Test
    void violationsCarryPostgresMessageDetailAndLeaveNoRows() {
        run("create table t (id int primary key, name text, unique (name, id))");
        run("insert into t values (1, 'one'), (2, 'two')");
        ParallaxException duplicate = failure("insert into t select g, 'x' from generate_series(3, 5) g union all select 2, 'y'");
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals("duplicate key value violates unique constraint \"t_pkey\"", duplicate.getMessage());
        assertEquals("Key (id)=(2) already exists.", duplicate.detail());
        run("insert into t values (3, 'one')");
        ParallaxException twoColumns = failure("insert into t values (4, 'four'), (4, 'four')");
        assertEquals("Key (id)=(4) already exists.", twoColumns.detail());
        try (Result result = session.execute("select count(*) from t")) {
            assertEquals(3L, ((Number) result.fetchAll().getFirst().getFirst()).longValue());
        }
    }

    @Test
    void keyErrorsAsPostgres() {
        ParallaxException multiple = failure("create table t (a int primary key, b int, primary key (b))");
        assertEquals(SqlState.INVALID_TABLE_DEFINITION, multiple.state());
        assertEquals("multiple primary keys for table \"t\" are not allowed", multiple.getMessage());
        assertEquals(43, multiple.position());
        ParallaxException missing = failure("create table t (a int, primary key (x))");
        assertEquals(SqlState.UNDEFINED_COLUMN, missing.state());
        assertEquals("column \"x\" named in key does not exist", missing.getMessage());
        ParallaxException twice = failure("create table t (a int, primary key (a, a))");
        assertEquals(SqlState.DUPLICATE_COLUMN, twice.state());
        assertEquals("column \"a\" appears twice in primary key constraint", twice.getMessage());
        // A foreign key to a missing table is PostgreSQL's 42P01, and no table is made.
        assertEquals(SqlState.UNDEFINED_TABLE, failure("create table t (a int, foreign key (a) references u (a))").state());
        assertEquals(null, database.catalog().findTable("t"));
    }

    /** What an index of {@code entries} entries over one INTEGER key reserves. */
    private static long reservationFor(long entries) {
        try (UniqueIndex probe = UniqueIndexes.create(IndexDefinition.primaryKey("probe", List.of("id"), List.of(DataType.INTEGER))
                .withInitialEntries(entries), new MemoryManager(1L << 30))) {
            return probe.reservedBytes();
        }
    }

    @Test
    void bulkInsertSizesTheIndexOnceForAllItsRowsOnePartitionedTableIndexToo() {
        run("create table t (id int primary key, info text)");
        run("create table p (id int primary key, info text) partition by hash (id) partitions 8");
        run("create table small (id int primary key, info text)");
        run("insert into t select g, md5(g::text) from generate_series(1, 20000) g");
        run("insert into p select g, md5(g::text) from generate_series(1, 20000) g");
        run("insert into small select g, md5(g::text) from generate_series(1, 100) g");
        // Sized for the 20,000 rows at 30% fill (as much room again as they take), not doubled step by step.
        long sized = reservationFor((long) Math.ceil(20_000 / 0.3));
        assertEquals(sized, database.catalog().table("t").uniqueConstraints().getFirst().index().reservedBytes());
        assertEquals(sized, database.catalog().table("p").partitionedConstraints().getFirst().index().reservedBytes());
        assertEquals(reservationFor(IndexDefinition.DEFAULT_INITIAL_ENTRIES),
                database.catalog().table("small").uniqueConstraints().getFirst().index().reservedBytes());
        // Both indexes hold every key once, and the next statements find them.
        run("insert into t values (20001, 'x') on conflict (id) do update set info = excluded.info");
        run("insert into p values (7, 'seven') on conflict (id) do update set info = excluded.info");
        assertEquals(SqlState.UNIQUE_VIOLATION, failure("insert into p values (19999, 'again')").state());
        try (Result result = session.execute("select (select count(*) from t), (select count(distinct id) from p), (select info from p where id = 7)")) {
            assertEquals(List.of(20001L, 20000L, "seven"), result.fetchAll().getFirst());
        }
        assertEquals(sized * 2 + reservationFor(IndexDefinition.DEFAULT_INITIAL_ENTRIES), database.memory().allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void dropTableGivesTheIndexMemoryBack() {
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
        run("create table t (id bigint primary key, code text unique)");
        assertTrue(database.memory().allocatedBytes(MemoryTag.INDEXES) > 0);
        run("insert into t select g, md5(g::text) from generate_series(1, 50000) g");
        run("drop table t");
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
        run("create table t (id bigint primary key)");
        run("insert into t values (1)");
        run("drop table t");
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void concurrentWritersOfOverlappingKeysNeverStoreADuplicate() throws Exception {
        run("create table t (id int primary key, writer int)");
        int writers = 4;
        int keys = 300;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> inserted = new ArrayList<>();
        try {
            for (int writer = 0; writer < writers; writer++) {
                int self = writer;
                inserted.add(pool.submit(() -> {
                    int wins = 0;
                    try (Session own = database.openSession()) {
                        start.await();
                        for (int key = 0; key < keys; key++) {
                            // Every writer tries every key (in a different order), two rows per statement.
                            int first = (key * (2 * self + 1)) % keys;
                            try {
                                own.execute("insert into t values (" + first + ", " + self + "), (" + (first + keys) + ", " + self + ")").close();
                                wins++;
                            } catch (ParallaxException duplicate) {
                                assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
                            }
                        }
                    }
                    return wins;
                }));
            }
            start.countDown();
            int statements = 0;
            for (Future<Integer> future : inserted) {
                statements += future.get();
            }
            assertEquals(keys, statements);
        } finally {
            pool.shutdownNow();
        }
        try (Result result = session.execute("select count(*), count(distinct id), min(id), max(id) from t")) {
            List<Object> row = result.fetchAll().getFirst();
            assertEquals(List.of(2L * keys, 2L * keys, 0L, 2L * keys - 1),
                    row.stream().map(value -> ((Number) value).longValue()).toList());
        }
        // Both rows of a statement came from the same writer: no statement half-applied.
        try (Result result = session.execute("select id, writer from t order by id")) {
            List<List<Object>> rows = result.fetchAll();
            for (int key = 0; key < keys; key++) {
                assertEquals((long) key, ((Number) rows.get(key).get(0)).longValue());
                assertEquals(rows.get(key).get(1), rows.get(key + keys).get(1), "writer of keys " + key + " and " + (key + keys));
            }
        }
    }
}
