package dev.parallax.test.spill;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Spilling statements (hash join, hash aggregation, sort under work_mem = 64kB) leave no temporary
 * file behind: after they succeed, after they fail with an error raised while their spill files
 * exist, and after they are cancelled by statement_timeout. The files go to temp_file_directory,
 * here a directory of this test's own, so that nobody else's files are counted.
 */
class TemporaryFilesTest {
    private static final String JOIN = "select count(*), sum(l.id), sum(r.id) from tf_left l join tf_right r on l.k = r.k";
    private static final String AGGREGATE = "select count(*), sum(c) from (select t, count(*) as c from tf_left group by t) s";
    private static final String SORT = "select id from tf_left order by t, id limit 1";

    @TempDir
    Path temporary;

    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory();
        session = database.openSession();
        execute("create table tf_left (id int, k int, t text)");
        execute("create table tf_right (id int, k int)");
        execute("insert into tf_left select i, i % 9000, 'text ' || cast(i % 7000 as text) from generate_series(1, 40000) as s(i)");
        execute("insert into tf_right select i, (i * 7) % 11000 from generate_series(1, 30000) as s(i)");
        execute("set temp_file_directory = '" + temporary + "'");
        execute("set work_mem = '64kB'");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private void execute(String sql) {
        session.execute(sql).close();
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    private long leftovers() {
        try (Stream<Path> entries = Files.list(temporary)) {
            return entries.count();
        } catch (IOException failure) {
            throw new AssertionError(failure);
        }
    }

    @Test
    void successfulSpillingStatementsRemoveTheirFiles() {
        List<List<Object>> joined = rows(JOIN);
        List<List<Object>> grouped = rows(AGGREGATE);
        List<List<Object>> sorted = rows(SORT);
        assertEquals(0, leftovers());
        execute("reset work_mem");
        assertEquals(rows(JOIN), joined);
        assertEquals(rows(AGGREGATE), grouped);
        assertEquals(rows(SORT), sorted);
    }

    @Test
    void aFailureAfterSpillingRemovesTheFiles() {
        // The division fails on the joined row of l.id = 39999, long after both sides were partitioned.
        ParallaxException failure = assertThrows(ParallaxException.class, () ->
                rows("select sum(1 / (l.id - 39999)) from tf_left l join tf_right r on l.k = r.k"));
        assertEquals("22012", failure.state().code());
        ParallaxException grouped = assertThrows(ParallaxException.class, () ->
                rows("select t, sum(1 / (c - 5)) from (select t, count(*) as c from tf_left group by t) s group by t"));
        assertEquals("22012", grouped.state().code());
        assertEquals(0, leftovers());
        assertEquals(List.of(List.of(40000L)), rows("select count(*) from tf_left"));
    }

    @Test
    void aCancelledSpillingStatementRemovesTheFiles() {
        execute("set statement_timeout = 300");
        ParallaxException cancelled = assertThrows(ParallaxException.class, () ->
                rows("select count(*) from tf_left a join tf_right b on a.k % 10 = b.k % 10"));
        assertEquals("57014", cancelled.state().code());
        execute("reset statement_timeout");
        assertEquals(0, leftovers());
    }
}
