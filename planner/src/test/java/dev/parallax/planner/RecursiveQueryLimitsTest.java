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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A recursive query that never ends stops on the memory limit or on cancellation, and leaves nothing held. */
class RecursiveQueryLimitsTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(32L << 20).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    @Test
    void doublingRecursionFailsOnTheMemoryLimit() {
        assertFailsOnTheMemoryLimit("with recursive r(n) as (select 1 union all "
                + "select n + 1 from r cross join (values (1), (2)) as v(x)) select count(*) from r");
        // The session goes on.
        try (Result result = session.execute("with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select sum(n) from r")) {
            assertEquals(List.of(List.of(6L)), result.fetchAll());
        }
    }

    @Test
    void distinctRecursionChargesTheRowsItHasSeen() {
        assertFailsOnTheMemoryLimit("with recursive r(n) as (select 1 union "
                + "select n * 2 + x from r cross join (values (0), (1)) as v(x)) select count(*) from r");
    }

    /** {@code sql} fails with 53200 and leaves no work table or hash table bytes charged. */
    private void assertFailsOnTheMemoryLimit(String sql) {
        ParallaxException failure = assertThrows(ParallaxException.class, () -> {
            try (Result result = session.execute(sql)) {
                result.fetchAll();
            }
        });
        assertEquals(SqlState.OUT_OF_MEMORY, failure.state());
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.WORK_TABLES));
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.HASH_TABLES));
    }

    @Test
    void endlessRecursionStopsOnStatementTimeout() {
        session.execute("set statement_timeout = 100");
        ParallaxException failure = assertThrows(ParallaxException.class, () -> {
            try (Result result = session.execute("with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r")) {
                result.fetchAll();
            }
        });
        assertEquals(SqlState.QUERY_CANCELED, failure.state());
        assertEquals("canceling statement due to statement timeout", failure.getMessage());
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.WORK_TABLES));
    }
}
