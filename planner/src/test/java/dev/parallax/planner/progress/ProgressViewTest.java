package dev.parallax.planner.progress;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.RunningStatement;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pg_stat_progress lists the statements running in every session, read when queried. */
class ProgressViewTest {
    private static final String LONG_QUERY = "select count(*) from generate_series(1, 2000000000)";

    @Test
    void listsAStatementRunningInAnotherSessionUntilItEnds() throws Exception {
        try (Database database = Database.inMemory(); Session busy = database.openSession();
             Session observer = database.openSession()) {
            CompletableFuture<Throwable> running = CompletableFuture.supplyAsync(() -> {
                try (Result result = busy.execute(LONG_QUERY)) {
                    result.fetchAll();
                    return null;
                } catch (ParallaxException cancelled) {
                    return cancelled;
                }
            });
            List<List<Object>> rows = awaitRows(observer, "select session, query from pg_stat_progress where query like 'select count(*) from generate%'");
            assertEquals(List.of(List.of(1, LONG_QUERY)), rows);
            assertTrue(database.runningStatements().stream().map(RunningStatement::query).anyMatch(LONG_QUERY::equals));

            busy.cancel();
            Throwable outcome = running.get(30, TimeUnit.SECONDS);
            assertEquals(SqlState.QUERY_CANCELED, ((ParallaxException) outcome).state());
            // Only the observing statement itself is left.
            try (Result result = observer.execute("select session, query from pg_stat_progress")) {
                assertEquals(List.of(List.of(2, "select session, query from pg_stat_progress")), result.fetchAll());
            }
        }
    }

    @Test
    void isReadOnlyAndCannotBeDropped() {
        try (Database database = Database.inMemory(); Session session = database.openSession()) {
            ParallaxException insert = assertThrows(ParallaxException.class,
                    () -> session.execute("insert into pg_stat_progress select * from pg_stat_progress").close());
            assertEquals(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, insert.state());
            assertEquals("cannot insert into view \"pg_stat_progress\"", insert.getMessage());
            ParallaxException drop = assertThrows(ParallaxException.class, () -> session.execute("drop table pg_stat_progress").close());
            assertEquals(SqlState.WRONG_OBJECT_TYPE, drop.state());
            assertEquals("\"pg_stat_progress\" is not a table", drop.getMessage());
        }
    }

    private static List<List<Object>> awaitRows(Session session, String sql) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try (Result result = session.execute(sql)) {
                List<List<Object>> rows = result.fetchAll();
                if (!rows.isEmpty()) {
                    return rows;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no row of pg_stat_progress matched within 20 s: " + sql);
    }
}
