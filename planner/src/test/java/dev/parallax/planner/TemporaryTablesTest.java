package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Notice;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Temporary tables across sessions through the embedding API, as PostgreSQL 15 keeps them: each
 * session sees only its own, may make one of a name another session uses, finds its own before a
 * permanent table of the name; closing the session drops them and frees their pages and indexes.
 */
class TemporaryTablesTest {
    private Database database;
    private Session first;
    private Session second;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2));
        first = database.openSession();
        second = database.openSession();
    }

    @AfterEach
    void close() {
        first.close();
        second.close();
        database.close();
    }

    private static String tag(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result.commandTag();
        }
    }

    private static List<List<Object>> rows(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    private static ParallaxException failure(Session session, String sql) {
        return assertThrows(ParallaxException.class, () -> rows(session, sql));
    }

    @Test
    void eachSessionSeesOnlyItsOwnTemporaryTables() {
        tag(first, "create temp table t (id int primary key, v text)");
        tag(first, "insert into t values (1, 'first')");
        assertEquals(SqlState.UNDEFINED_TABLE, failure(second, "select * from t").state());
        // The same name, other columns, the same key's name: the second session's own table.
        tag(second, "create temporary table t (id int primary key, n int, w int)");
        tag(second, "insert into t values (1, 10, 20), (2, 30, 40)");
        assertEquals(List.of(List.of(1, "first")), rows(first, "select * from t"));
        assertEquals(List.of(List.of(1, 10, 20), List.of(2, 30, 40)), rows(second, "select * from t order by id"));
        assertEquals(SqlState.UNIQUE_VIOLATION, failure(second, "insert into t values (2, 0, 0)").state());
        tag(first, "insert into t values (2, 'fine here')");
        // Neither is in the database's catalog, nor in another session's pg_class.
        assertNull(database.catalog().findTable("t"));
        try (Session third = database.openSession()) {
            assertEquals(List.of(List.of(0L)), rows(third, "select count(*) from pg_class where relname = 't'"));
        }
        assertEquals(List.of(List.of(1L)), rows(first, "select count(*) from pg_class where relname = 't'"));
        // The table and its key's index, both in the session's temporary schema.
        assertEquals(List.of(List.of(2L, 1L)), rows(second, "select count(*), count(distinct relnamespace) from pg_class "
                + "where relname in ('t', 't_pkey') and relpersistence = 't'"));
    }

    @Test
    void aTemporaryTableHidesAPermanentOneInItsSessionOnly() {
        tag(first, "create table t (x int)");
        tag(first, "insert into t values (42)");
        tag(first, "create temp table t (x int)");
        tag(first, "insert into t values (1)");
        assertEquals(List.of(List.of(1)), rows(first, "select * from t"));
        assertEquals(List.of(List.of(42)), rows(first, "select * from public.t"));
        assertEquals(List.of(List.of(42)), rows(second, "select * from t"));
        tag(second, "insert into t values (43)");
        assertEquals(List.of(List.of(1)), rows(first, "select * from t"));
        // DROP TABLE in the first session drops its own first; the second session's name still reaches the permanent one.
        assertEquals("DROP TABLE", tag(first, "drop table t"));
        assertEquals(List.of(List.of(42), List.of(43)), rows(first, "select * from t order by x"));
    }

    @Test
    void closingTheSessionDropsItsTablesAndFreesTheirMemory() {
        long pages = database.memory().allocatedBytes(MemoryTag.PAGES);
        long indexes = database.memory().allocatedBytes(MemoryTag.INDEXES);
        Session owner = database.openSession();
        tag(owner, "create temp table big (id serial primary key, v text unique)");
        tag(owner, "create temp table parts (k int primary key) partition by hash (k)");
        tag(owner, "create temp table parts0 partition of parts for values with (modulus 2, remainder 0)");
        tag(owner, "create temp table parts1 partition of parts for values with (modulus 2, remainder 1)");
        tag(owner, "insert into big (v) select md5(g::text) from generate_series(1, 20000) g");
        tag(owner, "insert into parts select generate_series(1, 20000)");
        tag(owner, "create index on big (v)");
        assertTrue(database.memory().allocatedBytes(MemoryTag.PAGES) > pages);
        assertTrue(database.memory().allocatedBytes(MemoryTag.INDEXES) > indexes);
        owner.close();
        assertEquals(pages, database.memory().allocatedBytes(MemoryTag.PAGES));
        assertEquals(indexes, database.memory().allocatedBytes(MemoryTag.INDEXES));
        // The names are free again, also for the sequence of the serial column.
        Session next = database.openSession();
        tag(next, "create temp table big (id serial primary key, v text unique)");
        assertEquals(List.of(List.of(1)), rows(next, "insert into big (v) values ('x') returning id"));
        next.close();
    }

    @Test
    void droppingATemporaryTableFreesItsMemory() {
        long pages = database.memory().allocatedBytes(MemoryTag.PAGES);
        long indexes = database.memory().allocatedBytes(MemoryTag.INDEXES);
        tag(first, "create temp table big (id int primary key, v text)");
        tag(first, "insert into big select g, md5(g::text) from generate_series(1, 20000) g");
        assertEquals("DROP TABLE", tag(first, "drop table big"));
        assertEquals(pages, database.memory().allocatedBytes(MemoryTag.PAGES));
        assertEquals(indexes, database.memory().allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void onCommitDeleteRowsFreesTheRowsAtEachTransactionsEnd() {
        long pages = database.memory().allocatedBytes(MemoryTag.PAGES);
        tag(first, "create temp table staged (id int primary key) on commit delete rows");
        tag(first, "begin");
        tag(first, "insert into staged select generate_series(1, 20000)");
        assertEquals(List.of(List.of(20000L)), rows(first, "select count(*) from staged"));
        assertTrue(database.memory().allocatedBytes(MemoryTag.PAGES) > pages);
        tag(first, "commit");
        assertEquals(List.of(List.of(0L)), rows(first, "select count(*) from staged"));
        assertEquals(pages, database.memory().allocatedBytes(MemoryTag.PAGES));
        tag(first, "insert into staged values (1)");
        assertEquals(List.of(List.of(0L)), rows(first, "select count(*) from staged"));
    }

    /** A result left open keeps ON COMMIT DELETE ROWS and DROP waiting (its scan holds the table) until it is closed. */
    @Test
    void onCommitActionsWaitForTheSessionsOpenResults() {
        tag(first, "create temp table staged (id int) on commit delete rows");
        tag(first, "begin");
        tag(first, "create temp table once (id int) on commit drop");
        tag(first, "insert into staged select generate_series(1, 3)");
        tag(first, "insert into once values (1)");
        Result open = first.execute("select id from staged");
        tag(first, "commit");
        assertEquals(List.of(List.of(1L)), rows(first, "select count(*) from once"));
        assertEquals(3, open.fetchAll().size());
        open.close();
        assertEquals(List.of(List.of(0L)), rows(first, "select count(*) from staged"));
        assertEquals(SqlState.UNDEFINED_TABLE, failure(first, "select * from once").state());
    }

    /**
     * A statement prepared against the permanent table is planned again once a temporary table of
     * its name appears (the session's catalog version moved), and reads that one; another session's
     * statement of the same text goes on reading the permanent table.
     */
    @Test
    void aPreparedStatementIsPlannedAgainForANewTemporaryTable() {
        tag(first, "create table t (x int)");
        tag(first, "insert into t values (42)");
        PreparedQuery mine = first.prepare("select x from t");
        PreparedQuery theirs = second.prepare("select x from t");
        try (Result result = mine.execute()) {
            assertEquals(List.of(List.of(42)), result.fetchAll());
        }
        tag(first, "create temp table t (x int)");
        tag(first, "insert into t values (7)");
        try (Result result = mine.execute()) {
            assertEquals(List.of(List.of(7)), result.fetchAll());
        }
        try (Result result = theirs.execute()) {
            assertEquals(List.of(List.of(42)), result.fetchAll());
        }
        tag(first, "drop table t");
        try (Result result = mine.execute()) {
            assertEquals(List.of(List.of(42)), result.fetchAll());
        }
    }

    @Test
    void globalIsDeprecatedWithAWarning() {
        try (Result result = first.execute("create global temp table g (x int)")) {
            assertEquals("CREATE TABLE", result.commandTag());
            assertEquals(List.of(new Notice(Notice.WARNING, "GLOBAL is deprecated in temporary table creation", null)), result.messages());
        }
    }
}
