package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What tests of DDL and constraints through a session share: a fresh in-memory database (256 MiB,
 * two workers) and one session per test, a statement run to completion, a statement's failure.
 */
abstract class SessionCommandsTest {
    protected Database database;
    protected Session session;

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

    protected void run(String sql) {
        try (Result result = session.execute(sql)) {
            assertTrue(result != null);
        }
    }

    protected ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> session.execute(sql).close());
    }
}
