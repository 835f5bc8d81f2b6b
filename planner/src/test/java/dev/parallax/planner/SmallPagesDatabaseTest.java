package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.List;

/**
 * A fresh database per test with one open session, for the maintenance tests (VACUUM, autovacuum,
 * their progress view): small pages so that a thousand rows span several, two worker threads.
 */
abstract class SmallPagesDatabaseTest {
    protected Database database;
    protected Session session;

    @BeforeEach
    void openDatabase() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(256L << 20).withPageSize(4096).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void closeDatabase() {
        session.close();
        database.close();
    }

    /** The rows {@code sql} returns, fetched and closed. */
    protected List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }
}
