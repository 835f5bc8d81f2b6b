package dev.parallax.test.tpch;

import dev.parallax.Database;
import dev.parallax.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;

/**
 * The 22 TPC-H queries at scale factor 0.01 against PostgreSQL 15's answers on the same rows
 * (see {@link TpchReference}), with the default plans and with parallel plans forced onto every
 * query (debug_parallel_query, no parallel costs, no minimum scan size) so the parallel paths run
 * on small data, and both again under PostgreSQL's smallest {@code work_mem} (64kB) so that hash
 * joins, hash aggregations and sorts spill to temporary files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchQueriesTest {
    private Database database;
    private Session session;

    @BeforeAll
    void generate() {
        database = Database.inMemory();
        session = database.openSession();
        session.execute("CALL dbgen(sf => 0.01)").close();
    }

    @AfterAll
    void close() {
        session.close();
        database.close();
    }

    static List<String> queries() {
        return TpchReference.queryNames();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void matchesPostgresAnswer(String query) throws IOException {
        TpchReference.check(session, query, "sf0.01");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void matchesPostgresAnswerWithParallelPlansForced(String query) throws IOException {
        List<String> settings = List.of("debug_parallel_query = on", "parallel_setup_cost = 0", "parallel_tuple_cost = 0",
                "min_parallel_table_scan_size = 0");
        for (String setting : settings) {
            session.execute("SET " + setting).close();
        }
        try {
            TpchReference.check(session, query, "sf0.01");
        } finally {
            for (String setting : settings) {
                session.execute("RESET " + setting.substring(0, setting.indexOf(' '))).close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void matchesPostgresAnswerWhenSpillingUnderTinyWorkMem(String query) throws IOException {
        checkWith(query, List.of("work_mem = '64kB'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void matchesPostgresAnswerWhenSpillingWithParallelPlansForced(String query) throws IOException {
        checkWith(query, List.of("work_mem = '64kB'", "debug_parallel_query = on", "parallel_setup_cost = 0",
                "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0"));
    }

    private void checkWith(String query, List<String> settings) throws IOException {
        for (String setting : settings) {
            session.execute("SET " + setting).close();
        }
        try {
            TpchReference.check(session, query, "sf0.01");
        } finally {
            for (String setting : settings) {
                session.execute("RESET " + setting.substring(0, setting.indexOf(' '))).close();
            }
        }
    }
}
