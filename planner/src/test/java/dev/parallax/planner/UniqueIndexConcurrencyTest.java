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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CREATE UNIQUE INDEX and DROP INDEX while other sessions write: a write lands before the build
 * (and the build checks its key) or after it (and the index checks it); none is lost, and once the
 * index exists no duplicate key is stored. One writer runs a prepared INSERT (the point-upsert
 * path, whose plan predates the index), the other plain statements.
 */
class UniqueIndexConcurrencyTest {
    private static final int ROWS = 10_000;
    private static final int ROUNDS = 6;
    private static final int MAXIMUM_ROUNDS = 20;
    /** Inserts per writer and round at most: the table the build copies stays small (a writer on an idle machine outpaces it). */
    private static final int MAXIMUM_ATTEMPTS = 20_000;

    private Database database;
    private Session session;
    private ExecutorService threads;
    private final AtomicInteger nextId = new AtomicInteger(1_000_000);

    @BeforeEach
    void open() {
        // Small pages: the table spans many pages, so the build takes a while and writers meet it.
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2).withPageSize(8 * 1024));
        session = database.openSession();
        threads = Executors.newFixedThreadPool(3);
        // The first unique index loads Chronicle Map (seconds on a loaded machine): not during a round.
        execute(session, "create table warm (v int)");
        execute(session, "create unique index on warm (v)");
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        session.close();
        database.close();
    }

    private static List<List<Object>> execute(Session on, String sql) {
        try (Result result = on.execute(sql)) {
            return result.fetchAll();
        }
    }

    private static long number(List<List<Object>> rows) {
        return ((Number) rows.getFirst().getFirst()).longValue();
    }

    /** What one writer did: rows stored, and how many of them repeated a key of the table's first rows. */
    private record Written(int rows, int duplicates) {
    }

    /**
     * Inserts rows with fresh keys until {@code duplicating} is set, then alternates fresh keys with
     * keys of the first rows (1..ROWS) until {@code done} (or {@link #MAXIMUM_ATTEMPTS}): a repeated key is stored only when the
     * insert came before the build, else it fails with 23505. 40001 (the table was replaced between
     * the plan and the write) stores nothing. Fresh keys are distinct across writers.
     */
    private Future<Written> writer(String table, boolean prepared, int writerNumber, AtomicBoolean duplicating, AtomicBoolean done) {
        return threads.submit(() -> {
            int rows = 0;
            int duplicates = 0;
            try (Session other = database.openSession();
                 PreparedQuery insert = prepared ? other.prepare("insert into " + table + " values ($1, $2)") : null) {
                for (int attempt = 0; !done.get() && attempt < MAXIMUM_ATTEMPTS; attempt++) {
                    boolean repeat = duplicating.get() && attempt % 2 == 1;
                    int key = repeat ? 1 + attempt % ROWS : ROWS + 1 + attempt * 2 + writerNumber;
                    int id = nextId.getAndIncrement();
                    try {
                        if (insert != null) {
                            insert.execute(id, key).close();
                        } else {
                            execute(other, "insert into " + table + " values (" + id + ", " + key + ")");
                        }
                        rows++;
                        duplicates += repeat ? 1 : 0;
                    } catch (ParallaxException failure) {
                        boolean allowed = failure.state() == SqlState.SERIALIZATION_FAILURE
                                || repeat && failure.state() == SqlState.UNIQUE_VIOLATION;
                        assertTrue(allowed, failure.getMessage());
                    }
                }
            }
            return new Written(rows, duplicates);
        });
    }

    /**
     * Rounds on fresh tables: the writers turn to repeating keys a few milliseconds into the build
     * (run on its own thread), so their repeats land before it (the build then fails, leaving no
     * index), while it holds the table (they wait, fail with 40001 and are planned again) or after
     * it (the index refuses them); whichever happened, the table and the outcome agree. Rounds go on
     * until two builds succeeded, so that the index's side is checked too.
     */
    @Test
    void writersDuringTheBuildNeverStoreADuplicateOnceTheIndexExists() throws Exception {
        int built = 0;
        for (int round = 0; round < MAXIMUM_ROUNDS && built < 2; round++) {
            String table = "t" + round;
            execute(session, "create table " + table + " (id int, v int)");
            execute(session, "insert into " + table + " select g, g from generate_series(1, " + ROWS + ") g");
            AtomicBoolean duplicating = new AtomicBoolean();
            AtomicBoolean done = new AtomicBoolean();
            Future<Written> preparedWriter = writer(table, true, 0, duplicating, done);
            Future<Written> plainWriter = writer(table, false, 1, duplicating, done);
            Thread.sleep(20);
            Future<ParallaxException> build = threads.submit(() -> {
                try {
                    execute(session, "create unique index on " + table + " (v)");
                    return null;
                } catch (ParallaxException failure) {
                    return failure;
                }
            });
            Thread.sleep(5);
            duplicating.set(true);
            ParallaxException failure = build.get();
            // Writers go on against the index (or the table without one) for a while.
            Thread.sleep(50);
            done.set(true);
            Written prepared = preparedWriter.get();
            Written plain = plainWriter.get();
            long rows = number(execute(session, "select count(*) from " + table));
            long keys = number(execute(session, "select count(distinct v) from " + table));
            assertEquals(ROWS + prepared.rows() + plain.rows(), rows, "no write lost");
            long indexes = number(execute(session, "select count(*) from pg_indexes where tablename = '" + table + "'"));
            int repeated = prepared.duplicates() + plain.duplicates();
            if (failure == null) {
                built++;
                assertEquals(rows, keys, "no duplicate key stored once the index exists");
                assertEquals(0, repeated);
                assertEquals(1, indexes);
                assertEquals(List.of(List.of(1L)), execute(session, "select count(*) from " + table + " where v = 7"));
            } else {
                // The build failed on a repeated key that landed before it, and left no index behind.
                assertEquals(SqlState.UNIQUE_VIOLATION, failure.state(), failure.getMessage());
                assertTrue(failure.getMessage().startsWith("could not create unique index \"" + table + "_v_idx\""), failure.getMessage());
                assertTrue(repeated > 0);
                assertEquals(rows - keys, repeated);
                assertEquals(0, indexes);
            }
        }
        assertEquals(2, built, "builds that succeeded in " + MAXIMUM_ROUNDS + " rounds");
    }

    @Test
    void writersDuringBuildsAndDropsLoseNothing() throws Exception {
        execute(session, "create table t (id int, v int)");
        execute(session, "insert into t select g, g from generate_series(1, " + ROWS + ") g");
        AtomicBoolean never = new AtomicBoolean();
        AtomicBoolean done = new AtomicBoolean();
        Future<Written> preparedWriter = writer("t", true, 0, never, done);
        Future<Written> plainWriter = writer("t", false, 1, never, done);
        for (int round = 0; round < ROUNDS; round++) {
            execute(session, "create unique index u on t (v)");
            assertEquals(List.of(List.of(1L)), execute(session, "select count(*) from t where v = " + (round + 1)));
            execute(session, "drop index u");
        }
        execute(session, "create unique index u on t (v)");
        done.set(true);
        Written prepared = preparedWriter.get();
        Written plain = plainWriter.get();
        assertTrue(prepared.rows() > 0 && plain.rows() > 0);
        List<Object> summary = execute(session, "select count(*), count(distinct v), count(*) filter (where v > " + ROWS + ") from t").getFirst();
        assertEquals((long) ROWS + prepared.rows() + plain.rows(), ((Number) summary.get(0)).longValue());
        assertEquals(summary.get(0), summary.get(1));
        assertEquals((long) prepared.rows() + plain.rows(), ((Number) summary.get(2)).longValue());
        ParallaxException duplicate = org.junit.jupiter.api.Assertions.assertThrows(ParallaxException.class,
                () -> execute(session, "insert into t values (0, 1)"));
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals("duplicate key value violates unique constraint \"u\"", duplicate.getMessage());
    }
}
