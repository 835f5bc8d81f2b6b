package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.ColumnStatistics;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** VACUUM and ANALYZE through a session: effects, VERBOSE messages, statistics and PostgreSQL's errors. */
class VacuumCommandsTest extends SmallPagesDatabaseTest {
    private static final String USAGE = "CPU: user: \\d+\\.\\d\\d s, system: \\d+\\.\\d\\d s, elapsed: \\d+\\.\\d\\d s";

    private Result run(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result;
        }
    }

    private ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> session.execute(sql).close());
    }

    private PagedTableStorage storage(String table) {
        return (PagedTableStorage) database.catalog().table(table).storage();
    }

    /** Deletes the rows whose first column (an integer) matches, through the storage (DELETE is another issue's). */
    private long deleteWhere(String table, LongPredicate predicate) {
        PagedTableStorage storage = storage(table);
        var ids = dev.parallax.engine.vector.Batch.create(List.of(storage.columnTypes().getFirst()), 16);
        long deleted = 0;
        for (int page = 0; page < storage.pageCount(); page++) {
            int slots = storage.pageRowSlots(page);
            int[] all = new int[slots];
            for (int slot = 0; slot < slots; slot++) {
                all[slot] = slot;
            }
            storage.readSlots(page, all, slots, new int[] {0}, ids);
            for (int slot = 0; slot < slots; slot++) {
                if (!storage.isDeleted(page, slot)
                        && predicate.test(((dev.parallax.engine.vector.LongVector) ids.column(0)).get(slot)) && storage.delete(page, slot)) {
                    deleted++;
                }
            }
        }
        return deleted;
    }

    @Test
    void vacuumReclaimsDeadRowsAndMemory() {
        run("create table t (id integer, name text)");
        run("insert into t select g, 'name ' || g from generate_series(1, 2000) as s(g)");
        List<List<Object>> survivors = rows("select id, name from t where id > 1000 or (id > 500 and id % 2 = 1) order by id");
        int pagesInUse = database.pageAllocator().pagesInUse();
        // Ids up to 500, and the even ids up to 1000.
        assertEquals(750, deleteWhere("t", id -> id <= 500 || id <= 1000 && id % 2 == 0));
        assertEquals(1250, storage("t").rowCount());
        assertEquals(750, storage("t").deadRowCount());
        Result result = run("vacuum t");
        assertEquals("VACUUM", result.commandTag());
        assertEquals(List.of(), result.messages());
        assertEquals(1250, survivors.size());
        assertEquals(survivors, rows("select id, name from t order by id"));
        assertEquals(0, storage("t").deadRowCount());
        assertEquals(1, database.catalog().table("t").maintenance().vacuumCount());
        // The pages of ids up to 500 went back to the allocator; the others were compacted in place.
        assertTrue(database.pageAllocator().pagesInUse() < pagesInUse - 2, database.pageAllocator().pagesInUse() + " of " + pagesInUse);
        // Memory returns to the budget slab by slab: dropping the table gives it all back.
        run("drop table t");
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.PAGES));
    }

    @Test
    void vacuumVerboseReportsPostgresFigures() {
        run("create table t (id integer, name text)");
        run("insert into t select g, 'n' || g from generate_series(1, 1000) as s(g)");
        PagedTableStorage storage = storage("t");
        int pages = storage.pageCount();
        // The whole first page dies (it goes away) and every other row of the rest.
        int firstPageRows = storage.pageRowSlots(0);
        long deleted = deleteWhere("t", id -> id <= firstPageRows || id % 2 == 0);
        long remaining = 1000 - deleted;

        Result result = run("vacuum verbose t");

        List<Notice> messages = result.messages();
        assertEquals(2, messages.size());
        assertEquals(new Notice("INFO", "vacuuming \"public.t\"", null), messages.get(0));
        String finished = messages.get(1).message();
        String[] lines = finished.split("\n");
        assertEquals("INFO", messages.get(1).severity());
        assertEquals("finished vacuuming \"public.t\": index scans: 0", lines[0]);
        assertEquals("pages: 1 removed, " + (pages - 1) + " remain, " + pages + " scanned (100.00% of total)", lines[1]);
        assertEquals("tuples: " + deleted + " removed, " + remaining + " remain, 0 are dead but not yet removable", lines[2]);
        assertTrue(lines[3].matches("system usage: " + USAGE), lines[3]);
        assertEquals(4, lines.length);
        assertEquals(List.of(List.of(remaining)), rows("select count(*) from t"));
    }

    /** Ids of a result's remaining rows (first column, an integer), in order. */
    private static List<Long> remainingIds(Result result) {
        List<Long> ids = new ArrayList<>();
        for (List<Object> row : result.fetchAll()) {
            ids.add(((Number) row.getFirst()).longValue());
        }
        return ids;
    }

    /**
     * A query is held open after its first batch while another session deletes and updates rows it
     * has not read yet and vacuums: the query still returns exactly the rows live when it began,
     * serial or parallel; its snapshot is released when it ends, and then VACUUM takes the rest.
     */
    @Test
    void aQueryHeldOpenSeesItsSnapshotWhileDeleteAndVacuumRun() {
        run("create table t (id integer primary key, name text)");
        run("insert into t select g, 'name ' || g from generate_series(1, 6000) as s(g)");
        run("delete from t where id % 7 = 0");
        List<Long> snapshotIds = new ArrayList<>();
        for (long id = 1; id <= 6000; id++) {
            if (id % 7 != 0) {
                snapshotIds.add(id);
            }
        }
        PagedTableStorage storage = storage("t");
        try (Session other = database.openSession()) {
            for (String parallel : List.of("off", "on")) {
                run("set max_parallel_workers_per_gather = " + ("on".equals(parallel) ? 2 : 0));
                run("set parallel_setup_cost = 0");
                run("set parallel_tuple_cost = 0");
                run("set min_parallel_table_scan_size = 0");
                run("set parallel_scan_chunk_pages = 1");
                String plan = rows("explain select id from t").toString();
                assertEquals("on".equals(parallel), plan.contains("Parallel Seq Scan"), plan);
                Result held = session.execute("select id from t");
                List<Long> seen = new ArrayList<>();
                Batch first = held.nextBatch();
                for (int index = 0; index < first.selectedCount(); index++) {
                    seen.add(((LongVector) first.column(0)).get(first.position(index)));
                }
                assertTrue(storage.openSnapshotCount() >= 1);
                otherSession(other, "delete from t where id % 7 = 1");
                otherSession(other, "update t set name = 'changed' where id % 7 = 2");
                otherSession(other, "insert into t select g, 'new' from generate_series(7001, 7100) as s(g)");
                otherSession(other, "vacuum t");
                seen.addAll(remainingIds(held));
                held.close();
                assertEquals(0, storage.openSnapshotCount(), parallel);
                seen.sort(null);
                assertEquals(snapshotIds, seen, parallel);
                // Back to the snapshot's rows for the next round.
                otherSession(other, "delete from t where id > 7000");
                otherSession(other, "insert into t select g, 'name ' || g from generate_series(1, 6000) as s(g) where g % 7 = 1");
                otherSession(other, "update t set name = 'name ' || id where id % 7 = 2");
                run("vacuum t");
                assertEquals(0, storage.deadRowCount(), parallel);
                assertEquals(List.of(List.of((long) snapshotIds.size())), rows("select count(*) from t where name = 'name ' || id"));
            }
        }
    }

    private static void otherSession(Session other, String sql) {
        try (Result result = other.execute(sql)) {
            result.fetchAll();
        }
    }

    /** A scan that fails, is cancelled by closing its result early, or runs to its end leaves no snapshot registered. */
    @Test
    void everyWayAQueryEndsReleasesItsSnapshot() {
        run("create table t (id integer, name text)");
        run("insert into t select g, 'n' || g from generate_series(1, 5000) as s(g)");
        PagedTableStorage storage = storage("t");
        for (String workers : List.of("0", "2")) {
            run("set max_parallel_workers_per_gather = " + workers);
            run("set parallel_setup_cost = 0");
            run("set parallel_tuple_cost = 0");
            run("set min_parallel_table_scan_size = 0");
            assertEquals(List.of(List.of(5000L)), rows("select count(*) from t"));
            assertEquals(0, storage.openSnapshotCount());
            ParallaxException failure = assertThrows(ParallaxException.class, () -> rows("select 1 / (id - 4000) from t"));
            assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
            assertEquals(0, storage.openSnapshotCount());
            Result early = session.execute("select id from t");
            early.nextBatch();
            assertTrue(storage.openSnapshotCount() >= 1);
            early.close();
            assertEquals(0, storage.openSnapshotCount());
            assertEquals(List.of(List.of(2L)), rows("select count(*) from t a join t b on a.id = b.id where a.id < 3"));
            assertEquals(0, storage.openSnapshotCount());
        }
    }

    /**
     * An ordered index built while dead rows were on the pages: VACUUM renumbers the slots, so the
     * index turns stale and its next scan rebuilds it (its old row ids would address other rows).
     * An index scan held open meanwhile keeps VACUUM off every page until it ends.
     */
    @Test
    void orderedIndexesFollowVacuum() {
        run("create table t (a integer, b integer)");
        run("insert into t select g, g from generate_series(1, 3000) as s(g)");
        run("delete from t where a % 2 = 0");
        run("create index t_b on t (b)");
        String query = "select a from t where b between 1 and 10 order by b";
        assertTrue(rows("explain " + query).toString().contains("Index Scan using t_b"));
        List<List<Object>> expected = List.of(List.of(1), List.of(3), List.of(5), List.of(7), List.of(9));
        assertEquals(expected, rows(query));
        run("vacuum t");
        assertEquals(0, storage("t").deadRowCount());
        assertEquals(expected, rows(query));

        // Rows come a batch of 4096 row ids at a time: stop after the first.
        run("insert into t select g, g from generate_series(3001, 12000) as s(g)");
        String all = "select a from t order by b limit 10000";
        assertTrue(rows("explain " + all).toString().contains("Index Scan using t_b"), rows("explain " + all).toString());
        Result held = session.execute(all);
        Batch first = held.nextBatch();
        List<Long> seen = new ArrayList<>();
        for (int index = 0; index < first.selectedCount(); index++) {
            seen.add(((LongVector) first.column(0)).get(first.position(index)));
        }
        run("delete from t where a % 3 = 0");
        Result vacuum = run("vacuum verbose t");
        assertTrue(vacuum.messages().get(1).message().contains("tuples: 0 removed, 7000 remain, 3500 are dead but not yet removable"),
                vacuum.messages().get(1).message());
        seen.addAll(remainingIds(held));
        held.close();
        List<Long> expectedIds = new ArrayList<>();
        for (long id = 1; id <= 12000 && expectedIds.size() < 10000; id++) {
            if (id > 3000 || id % 2 == 1) {
                expectedIds.add(id);
            }
        }
        assertEquals(expectedIds, seen);
        run("vacuum t");
        assertEquals(0, storage("t").deadRowCount());
        assertEquals(List.of(List.of(1), List.of(5), List.of(7)), rows(query));
    }

    /**
     * VACUUM FULL packs the live rows into as few pages as a fresh load of them needs, gives the old
     * pages back, rewrites the primary key and rebuilds the ordered index; contents are unchanged.
     */
    @Test
    void vacuumFullRewritesCompactlyAndRebuildsIndexes() {
        run("create table t (id integer primary key, name text)");
        run("insert into t select g, case when g % 2 = 0 then 'even number ' else 'odd ' end || g from generate_series(1, 5000) as s(g)");
        run("create index t_name on t (name)");
        run("delete from t where id % 3 = 0 or id % 5 = 0");
        long removed = 0;
        for (int id = 1; id <= 5000; id++) {
            removed += id % 3 == 0 || id % 5 == 0 ? 1 : 0;
        }
        List<List<Object>> contents = rows("select id, name from t order by id");
        int pagesBefore = storage("t").pageCount();
        int pagesInUse = database.pageAllocator().pagesInUse();

        Result result = run("vacuum full verbose t");

        List<Notice> messages = result.messages();
        assertEquals(2, messages.size(), messages.toString());
        assertEquals(new Notice("INFO", "vacuuming \"public.t\"", null), messages.get(0));
        assertEquals("\"public.t\": found " + removed + " removable, " + (5000 - removed) + " nonremovable row versions in "
                + pagesBefore + " pages", messages.get(1).message());
        assertTrue(messages.get(1).detail().matches("0 dead row versions cannot be removed yet.\n" + USAGE + "\\."),
                messages.get(1).detail());
        assertEquals(contents, rows("select id, name from t order by id"));
        run("create table fresh (id integer primary key, name text)");
        run("insert into fresh select id, name from t order by id");
        assertEquals(storage("fresh").pageCount(), storage("t").pageCount());
        assertTrue(storage("t").pageCount() < pagesBefore * 3 / 4, storage("t").pageCount() + " of " + pagesBefore);
        assertEquals(pagesInUse - pagesBefore + 2 * storage("t").pageCount(), database.pageAllocator().pagesInUse());
        assertEquals(0, storage("t").deadRowCount());
        assertTrue(database.catalog().findIndex("t_name").isCurrent());
        assertEquals(List.of(List.of(4, "even number 4")), rows("select id, name from t where id = 4"));
        assertEquals(List.of(List.of(7)), rows("select id from t where name = 'odd 7'"));
        assertEquals(SqlState.UNIQUE_VIOLATION, failure("insert into t values (4, 'again')").state());
        run("insert into t values (3, 'back')");
        assertEquals(List.of(List.of(3, "back")), rows("select id, name from t where id = 3"));
    }

    @Test
    void analyzeGathersExactStatisticsOfASmallTable() {
        run("create table s (a integer, b text, c double precision, d integer)");
        run("insert into s values (3, 'pear', 1.5, null), (1, 'apple', null, null), (3, 'fig', -2.0, null), "
                + "(null, 'apple', 0.0, null), (7, null, -0.0, null)");
        Result result = run("analyze verbose s");
        assertEquals("ANALYZE", result.commandTag());
        int pages = storage("s").pageCount();
        assertEquals(List.of(Notice.info("analyzing \"public.s\""),
                Notice.info("\"s\": scanned " + pages + " of " + pages + " pages, containing 5 live rows and 0 dead rows; "
                        + "5 rows in sample, 5 estimated total rows")), result.messages());
        Table table = database.catalog().table("s");
        TableStatistics statistics = table.statistics();
        assertEquals(5, statistics.rowCount());
        ColumnStatistics a = statistics.column(0);
        assertEquals(0.2, a.nullFraction(), 1e-12);
        assertEquals(3, a.distinctCount());
        assertEquals(1L, a.minimum());
        assertEquals(7L, a.maximum());
        ColumnStatistics b = statistics.column(1);
        assertEquals(0.2, b.nullFraction(), 1e-12);
        assertEquals(3, b.distinctCount());
        assertArrayEquals("apple".getBytes(StandardCharsets.UTF_8), (byte[]) b.minimum());
        assertArrayEquals("pear".getBytes(StandardCharsets.UTF_8), (byte[]) b.maximum());
        ColumnStatistics c = statistics.column(2);
        assertEquals(0.2, c.nullFraction(), 1e-12);
        assertEquals(3, c.distinctCount(), "0.0 and -0.0 are one value");
        assertEquals(-2.0, c.minimum());
        assertEquals(1.5, c.maximum());
        ColumnStatistics d = statistics.column(3);
        assertEquals(1.0, d.nullFraction(), 1e-12);
        assertEquals(0, d.distinctCount());
        assertNull(d.minimum());
        assertEquals(1, table.maintenance().analyzeCount());

        // A column list analyzes just those columns; the others keep their figures.
        run("insert into s values (100, 'zebra', 9.0, 1)");
        run("analyze s (a)");
        assertEquals(6, table.statistics().rowCount());
        assertEquals(100L, table.statistics().column(0).maximum());
        assertArrayEquals("pear".getBytes(StandardCharsets.UTF_8), (byte[]) table.statistics().column(1).maximum());
    }

    @Test
    void vacuumAnalyzeDoesBothAndAllTablesWhenNoneNamed() {
        run("create table a (x integer)");
        run("create table b (x integer)");
        run("insert into a select g from generate_series(1, 100) as s(g)");
        run("insert into b select g from generate_series(1, 300) as s(g)");
        deleteWhere("a", x -> x > 50);
        Result result = run("vacuum analyze");
        assertEquals(List.of(), result.messages());
        Table a = database.catalog().table("a");
        Table b = database.catalog().table("b");
        assertEquals(50, a.statistics().rowCount());
        assertEquals(300, b.statistics().rowCount());
        assertEquals(1, a.maintenance().vacuumCount());
        assertEquals(1, b.maintenance().vacuumCount());
        assertEquals(0, storage("a").deadRowCount());
    }

    @Test
    void parallelVacuumOfManyTables() {
        for (int table = 0; table < 6; table++) {
            run("create table p" + table + " (x integer, y text)");
            run("insert into p" + table + " select g, 'y' || g from generate_series(1, " + (500 * (table + 1)) + ") as s(g)");
            deleteWhere("p" + table, x -> x % 3 == 0);
        }
        Result result = run("vacuum (parallel 2, verbose) p0, p1, p2, p3, p4, p5");
        List<Notice> messages = result.messages();
        assertEquals(12, messages.size());
        for (int table = 0; table < 6; table++) {
            // Messages come in the statement's order whatever order the workers took the tables in.
            assertEquals("vacuuming \"public.p" + table + "\"", messages.get(2 * table).message());
            long rows = 500L * (table + 1);
            assertTrue(messages.get(2 * table + 1).message().contains("tuples: " + rows / 3 + " removed, " + (rows - rows / 3) + " remain"),
                    messages.get(2 * table + 1).message());
            assertEquals(List.of(List.of(rows - rows / 3)), rows("select count(*) from p" + table));
            assertEquals(0, storage("p" + table).deadRowCount());
        }
    }

    @Test
    void vacuumOfAPartitionedTableVacuumsEveryPartition() {
        run("create table ph (id integer, name text) partition by hash (id)");
        for (int remainder = 0; remainder < 4; remainder++) {
            run("create table ph_" + remainder + " partition of ph for values with (modulus 4, remainder " + remainder + ")");
        }
        run("insert into ph select g, 'n' || g from generate_series(1, 2000) as s(g)");
        long deleted = 0;
        for (int remainder = 0; remainder < 4; remainder++) {
            deleted += deleteWhere("ph_" + remainder, id -> id % 2 == 0);
        }
        assertEquals(1000, deleted);
        Result result = run("vacuum (verbose, parallel 1, analyze) ph");
        List<String> vacuumed = result.messages().stream().map(Notice::message)
                .filter(message -> message.startsWith("vacuuming")).toList();
        assertEquals(List.of("vacuuming \"public.ph_0\"", "vacuuming \"public.ph_1\"", "vacuuming \"public.ph_2\"",
                "vacuuming \"public.ph_3\""), vacuumed);
        long rows = 0;
        for (int remainder = 0; remainder < 4; remainder++) {
            assertEquals(0, storage("ph_" + remainder).deadRowCount());
            assertEquals(1, database.catalog().table("ph_" + remainder).maintenance().vacuumCount());
            rows += database.catalog().table("ph_" + remainder).statistics().rowCount();
        }
        assertEquals(1000, rows);
        assertEquals(List.of(List.of(1000L, 1000000L)), rows("select count(*), sum(id) from ph"));
        // A database-wide VACUUM reaches the partitions once each, not through the parent again.
        run("vacuum");
        assertEquals(2, database.catalog().table("ph_0").maintenance().vacuumCount());
    }

    @Test
    void systemViewsAreSkippedWithAWarning() {
        Result result = run("vacuum pg_stat_progress");
        assertEquals(List.of(Notice.warning("skipping \"pg_stat_progress\" --- cannot vacuum non-tables or special system tables")),
                result.messages());
        assertEquals(List.of(Notice.warning("skipping \"pg_stat_progress\" --- cannot analyze non-tables or special system tables")),
                run("analyze pg_stat_progress").messages());
        run("create table base (x integer)");
        run("create view v as select x from base");
        assertEquals(List.of(Notice.warning("skipping \"v\" --- cannot vacuum non-tables or special system tables")),
                run("vacuum v, base").messages());
    }

    @Test
    void errorsAsPostgres() {
        run("create table t (id integer, name text)");
        assertError("vacuum nope", SqlState.UNDEFINED_TABLE, "relation \"nope\" does not exist", 0);
        assertError("vacuum t, nope", SqlState.UNDEFINED_TABLE, "relation \"nope\" does not exist", 0);
        assertError("vacuum (foo) t", SqlState.SYNTAX_ERROR, "unrecognized VACUUM option \"foo\"", 9);
        assertError("analyze (verbose, full) t", SqlState.SYNTAX_ERROR, "unrecognized ANALYZE option \"full\"", 19);
        assertError("vacuum (parallel) t", SqlState.SYNTAX_ERROR, "parallel option requires a value between 0 and 1024", 9);
        assertError("vacuum (parallel -1) t", SqlState.SYNTAX_ERROR, "parallel workers for vacuum must be between 0 and 1024", 9);
        assertError("vacuum (parallel 1025) t", SqlState.SYNTAX_ERROR, "parallel workers for vacuum must be between 0 and 1024", 9);
        assertError("vacuum (parallel 2.5) t", SqlState.SYNTAX_ERROR, "parallel requires an integer value", 0);
        assertError("vacuum (verbose foo) t", SqlState.SYNTAX_ERROR, "verbose requires a Boolean value", 0);
        assertError("vacuum (full, parallel 2) t", SqlState.FEATURE_NOT_SUPPORTED, "VACUUM FULL cannot be performed in parallel", 0);
        assertError("vacuum t (id)", SqlState.FEATURE_NOT_SUPPORTED, "ANALYZE option must be specified when a column list is provided", 0);
        assertError("analyze t (zz)", SqlState.UNDEFINED_COLUMN, "column \"zz\" of relation \"t\" does not exist", 0);
        assertError("analyze t (id, id)", SqlState.DUPLICATE_COLUMN, "column \"id\" of relation \"t\" appears more than once", 0);
        assertError("vacuum analyze verbose t", SqlState.SYNTAX_ERROR, "syntax error at or near \"verbose\"", 16);
        assertError("vacuum ()", SqlState.SYNTAX_ERROR, "syntax error at or near \")\"", 9);
        // Nothing was analyzed by the failed statements.
        assertNull(database.catalog().table("t").statistics());
        assertEquals("VACUUM", run("vacuum (verbose false, analyze on, index_cleanup auto, truncate, freeze) t").commandTag());
        assertEquals("VACUUM", run("vacuum full freeze verbose analyze t").commandTag());
        assertEquals("VACUUM", run("vacuum analyze t, t").commandTag());
    }

    private void assertError(String sql, SqlState state, String message, int position) {
        ParallaxException error = failure(sql);
        assertEquals(state, error.state(), sql);
        assertEquals(message, error.getMessage(), sql);
        assertEquals(position, error.position(), sql);
    }
}
