package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large INSERT ... SELECT: rows written into staged pages, by the participants of a Gather
 * (ParallelInsertOperator) or by the leader (InsertOperator past one chunk), published at once.
 * Checked exactly: every row once, nothing of a statement that fails midway, whole statements
 * only to a concurrent scan.
 */
class BulkInsertStatementsTest {
    private static final int ROWS = 200_000;

    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2));
        session = database.openSession();
        tag(session, "create table src (id int, t text)");
        // Row 150000's text is NULL: a NOT NULL target fails on it, past several chunks of rows.
        tag(session, "insert into src select g, case when g = 150000 then null else md5(g::text) end from generate_series(1, " + ROWS + ") g");
        // Small enough that the test's source table gets workers.
        tag(session, "set min_parallel_table_scan_size = 0");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private static String tag(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            result.fetchAll();
            return result.commandTag();
        }
    }

    private static List<List<Object>> rows(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            return result.fetchAll();
        }
    }

    private String plan(String sql) {
        StringBuilder text = new StringBuilder();
        for (List<Object> row : rows(session, "explain (costs off) " + sql)) {
            text.append(row.getFirst()).append('\n');
        }
        return text.toString();
    }

    /** count, distinct ids, sum of ids, count of NULL texts, and a checksum of the texts. */
    private List<List<Object>> summary(String table) {
        return rows(session, "select count(*), count(distinct id), sum(id), count(*) - count(t), "
                + "sum(length(t)), min(t), max(t) from " + table);
    }

    @Test
    void participantsWriteEveryRowOnceAndTheTableReadsBackExactly() {
        tag(session, "create table dst (id int, t text)");
        String insert = "insert into dst select id, t from src";
        assertEquals("""
                Insert on dst
                  ->  Gather
                        Workers Planned: 2
                        ->  Parallel Seq Scan on src
                """, plan(insert));
        assertEquals("INSERT 0 " + ROWS, tag(session, insert));
        assertEquals(summary("src"), summary("dst"));
        assertEquals(List.of(List.of(0L)), rows(session, "select count(*) from src s full join dst d on s.id = d.id where s.id is null or d.id is null"));
        // A second run appends after the first; later small inserts fill the last page.
        assertEquals("INSERT 0 " + ROWS, tag(session, insert));
        assertEquals("INSERT 0 2", tag(session, "insert into dst values (-1, 'a'), (-2, null)"));
        assertEquals(List.of(List.of((long) 2 * ROWS + 2, (long) ROWS + 2, 2L * ROWS * (ROWS + 1) / 2 - 3)),
                rows(session, "select count(*), count(distinct id), sum(id) from dst"));
    }

    @Test
    void aTableInsertedIntoFromItselfGetsEachRowOnceMore() {
        tag(session, "create table dst (id int, t text)");
        tag(session, "insert into dst select id, t from src");
        assertTrue(plan("insert into dst select id, t from dst").contains("Parallel Seq Scan on dst"));
        assertEquals("INSERT 0 " + ROWS, tag(session, "insert into dst select id, t from dst"));
        assertEquals(List.of(List.of((long) 2 * ROWS, (long) ROWS, 2L, 2L)),
                rows(session, "select sum(c)::bigint, count(*), min(c), max(c) from (select id, count(*) c from dst group by id) g"));
    }

    @Test
    void aFailureMidwayLeavesTheTableAndTheMemoryAsTheyWere() {
        tag(session, "create table dst (id int, t text not null)");
        tag(session, "create table short (id int, t varchar(10))");
        tag(session, "insert into dst values (0, 'before')");
        tag(session, "insert into short values (0, 'before')");
        for (String parallel : List.of("on", "off")) {
            tag(session, "set max_parallel_workers_per_gather = " + (parallel.equals("on") ? 2 : 0));
            long pagesBefore = database.memory().allocatedBytes(MemoryTag.PAGES);
            int pagesInUse = database.pageAllocator().pagesInUse();
            ParallaxException notNull = assertThrows(ParallaxException.class, () -> tag(session, "insert into dst select id, t from src"));
            assertEquals(SqlState.NOT_NULL_VIOLATION, notNull.state(), parallel);
            assertEquals("null value in column \"t\" of relation \"dst\" violates not-null constraint", notNull.getMessage());
            // md5 texts are 32 characters: rows from id 120000 on fail their varchar(10).
            ParallaxException tooLong = assertThrows(ParallaxException.class,
                    () -> tag(session, "insert into short select id, case when id < 120000 then 'ok' else t end from src"));
            assertEquals(SqlState.STRING_DATA_RIGHT_TRUNCATION, tooLong.state(), parallel);
            assertEquals(List.of(List.of(1L)), rows(session, "select count(*) from dst"), parallel);
            assertEquals(List.of(List.of(1L)), rows(session, "select count(*) from short"), parallel);
            assertEquals(pagesInUse, database.pageAllocator().pagesInUse(), parallel);
            assertTrue(database.memory().allocatedBytes(MemoryTag.PAGES) <= pagesBefore, parallel);
            // The table takes the rows once they are right.
            assertEquals("INSERT 0 " + (ROWS - 1), tag(session, "insert into dst select id, t from src where t is not null"));
            assertEquals(List.of(List.of((long) ROWS)), rows(session, "select count(*) from dst"), parallel);
            tag(session, "delete from dst where id > 0");
        }
    }

    @Test
    void aConcurrentScanSeesWholeStatementsOnly() throws Exception {
        tag(session, "create table dst (id int, t text)");
        AtomicBoolean inserting = new AtomicBoolean(true);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (Session readerSession = database.openSession()) {
            Future<Integer> scans = reader.submit(() -> {
                int count = 0;
                while (inserting.get()) {
                    List<Object> row = rows(readerSession, "select count(*), count(distinct id) from dst").getFirst();
                    long total = (Long) row.get(0);
                    assertEquals(0, total % ROWS, "part of a statement seen: " + total);
                    assertEquals(total == 0 ? 0L : (long) ROWS, row.get(1));
                    count++;
                }
                return count;
            });
            for (int run = 0; run < 4; run++) {
                tag(session, "set max_parallel_workers_per_gather = " + (run % 2 == 0 ? 2 : 0));
                assertEquals("INSERT 0 " + ROWS, tag(session, "insert into dst select id, t from src"));
            }
            inserting.set(false);
            assertTrue(scans.get() > 0);
        } finally {
            reader.shutdownNow();
        }
        assertEquals(List.of(List.of(4L * ROWS)), rows(session, "select count(*) from dst"));
    }
}
