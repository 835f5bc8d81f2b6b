package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CREATE INDEX / DROP INDEX through a session: the built index, names, notices and PostgreSQL's errors. */
class IndexCommandsTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(256L << 20).withWorkerThreads(2));
        session = database.openSession();
        session.execute("create table t (a integer, b text)");
        session.execute("insert into t select (g * 7919) % 1000, md5(g::text) from generate_series(1, 20000) as s(g)");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private Result run(String sql) {
        try (Result result = session.execute(sql)) {
            return result;
        }
    }

    private ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> session.execute(sql).close());
    }

    /** The key column {@code a} of each row id in index order. */
    private static long[] keysInIndexOrder(Table table, OrderedIndex index) {
        long[] keys = new long[(int) index.entryCount()];
        Batch page = Batch.create(List.of(table.columnTypes().getFirst()), 16);
        int loadedPage = -1;
        for (int position = 0; position < keys.length; position++) {
            long rowId = index.rowId(position);
            if (RowIds.pageIndex(rowId) != loadedPage) {
                loadedPage = RowIds.pageIndex(rowId);
                table.storage().readPage(loadedPage, new int[] {0}, page);
            }
            keys[position] = ((LongVector) page.column(0)).get(RowIds.row(rowId));
        }
        return keys;
    }

    @Test
    void createIndexBuildsAnOrderedIndexWithMaintenanceSettings() {
        run("set maintenance_work_mem = '1MB'");
        run("set max_parallel_maintenance_workers = 1");
        assertEquals("CREATE INDEX", run("create index concurrently t_a on t (a)").commandTag());
        Table table = database.catalog().table("t");
        OrderedIndex index = database.catalog().findIndex("t_a");
        assertNotNull(index);
        assertEquals(List.of(index), table.indexes());
        assertEquals(20_000, index.entryCount());
        assertTrue(index.isCurrent());
        long[] keys = keysInIndexOrder(table, index);
        for (int position = 1; position < keys.length; position++) {
            assertTrue(keys[position - 1] <= keys[position], "ascending at " + position);
        }
        assertEquals(0, keys[0]);
        assertEquals(999, keys[keys.length - 1]);

        run("insert into t values (5, 'x')");
        assertFalse(index.isCurrent(), "an appended row makes the index stale");
        assertEquals(List.of(List.of(20_001L)), session.execute("select count(*) from t").fetchAll());
    }

    @Test
    void indexScansStayExactWhileAnotherSessionInserts() throws Exception {
        run("create index concurrently t_a on t (a)");
        OrderedIndex index = database.catalog().findIndex("t_a");
        String plan = session.execute("explain (costs off) select count(*) from t where a >= 1000 and a < 2000").fetchAll().toString();
        assertTrue(plan.contains("Index Scan using t_a on t"), plan);
        // Each statement inserts two rows with one key of 1000 or more: every snapshot sees an even number of them.
        java.util.concurrent.atomic.AtomicReference<Throwable> writerFailure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (Session other = database.openSession()) {
                for (int statement = 0; statement < 300; statement++) {
                    int key = 1000 + statement * 37 % 50;
                    other.execute("insert into t values (" + key + ", 'x" + statement + "'), (" + key + ", 'y" + statement + "')").close();
                }
            } catch (Throwable failure) {
                writerFailure.set(failure);
            }
        });
        writer.start();
        long previous = 0;
        int scans = 0;
        do {
            long count = (Long) session.execute("select count(*) from t where a >= 1000 and a < 2000").fetchAll().getFirst().getFirst();
            assertEquals(0, count % 2, "a scan saw half of an insert");
            assertTrue(count >= previous, "a later scan saw fewer rows");
            previous = count;
            List<List<Object>> first = session.execute("select a, b from t where a >= 1000 and a < 2000 order by a limit 20").fetchAll();
            for (int row = 1; row < first.size(); row++) {
                assertTrue((Integer) first.get(row - 1).getFirst() <= (Integer) first.get(row).getFirst(), "in key order: " + first);
            }
            scans++;
        } while (writer.isAlive());
        writer.join();
        assertNull(writerFailure.get());
        assertTrue(scans > 1);
        assertEquals(List.of(List.of(600L)), session.execute("select count(*) from t where a >= 1000 and a < 2000").fetchAll());
        List<List<Object>> throughIndex = session.execute("select a, b from t where a between 1010 and 1020 or a < 3 order by a, b").fetchAll();
        List<List<Object>> descending = session.execute("select a from t order by a desc limit 30").fetchAll();
        run("set enable_indexscan = off");
        assertEquals(session.execute("select a, b from t where a between 1010 and 1020 or a < 3 order by a, b").fetchAll(), throughIndex);
        assertEquals(session.execute("select a from t order by a desc limit 30").fetchAll(), descending);
        assertTrue(index.appendMerges() > 0, "the inserts were merged into the index");
    }

    @Test
    void unnamedIndexesAreNamedAsPostgreSQLNamesThem() {
        run("create index on t (a, b)");
        run("create index on t (a, b)");
        assertNotNull(database.catalog().findIndex("t_a_b_idx"));
        assertNotNull(database.catalog().findIndex("t_a_b_idx1"));
    }

    @Test
    void errorsAndNoticesWordedAsPostgreSQL() {
        run("create index i on t (a)");
        ParallaxException duplicate = failure("create index i on t (b)");
        assertEquals(SqlState.DUPLICATE_TABLE, duplicate.state());
        assertEquals("relation \"i\" already exists", duplicate.getMessage());
        assertEquals("relation \"t\" already exists", failure("create index t on t (a)").getMessage());
        Result skipped = run("create index if not exists i on t (b)");
        assertEquals("CREATE INDEX", skipped.commandTag());
        assertEquals(List.of("relation \"i\" already exists, skipping"), skipped.notices());
        ParallaxException noColumn = failure("create index j on t (zz)");
        assertEquals(SqlState.UNDEFINED_COLUMN, noColumn.state());
        assertEquals("column \"zz\" does not exist", noColumn.getMessage());
        ParallaxException noTable = failure("create index j on nosuch (a)");
        assertEquals(SqlState.UNDEFINED_TABLE, noTable.state());
        assertEquals("relation \"nosuch\" does not exist", noTable.getMessage());
        assertEquals(SqlState.DUPLICATE_TABLE, failure("create table i (x int)").state());

        ParallaxException noIndex = failure("drop index nosuch");
        assertEquals(SqlState.UNDEFINED_OBJECT, noIndex.state());
        assertEquals("index \"nosuch\" does not exist", noIndex.getMessage());
        assertEquals(List.of("index \"nosuch\" does not exist, skipping"), run("drop index if exists nosuch").notices());
        ParallaxException notIndex = failure("drop index t");
        assertEquals(SqlState.WRONG_OBJECT_TYPE, notIndex.state());
        assertEquals("\"t\" is not an index", notIndex.getMessage());
        ParallaxException notTable = failure("drop table i");
        assertEquals(SqlState.WRONG_OBJECT_TYPE, notTable.state());
        assertEquals("\"i\" is not a table", notTable.getMessage());

        // A missing name leaves the others in place.
        failure("drop index i, nosuch");
        assertNotNull(database.catalog().findIndex("i"));
        assertEquals("DROP INDEX", run("drop index i").commandTag());
        assertNull(database.catalog().findIndex("i"));
        assertEquals(List.of(), database.catalog().table("t").indexes());
    }

    @Test
    void dropTableDropsAndFreesItsIndexes() {
        run("create index i on t (b)");
        OrderedIndex index = database.catalog().findIndex("i");
        run("drop table t");
        assertNull(database.catalog().findIndex("i"));
        assertThrows(IllegalStateException.class, () -> index.rowId(0));
        run("create table i (x int)");
    }
}
