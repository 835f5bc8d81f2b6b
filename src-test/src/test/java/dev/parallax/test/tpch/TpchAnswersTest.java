package dev.parallax.test.tpch;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TPC-H Q1 and Q6 at scale factor 1 against the official answers of the TPC-H specification
 * (answers/q1.out, q6.out; values compared rounded to cents as the specification's validation does),
 * with the default (parallel) plan and with parallelism off; and all 22 queries against PostgreSQL
 * 15's answers on the same rows (the official answers hold only rounded values for most queries).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchAnswersTest {
    private static final List<String> Q1_ANSWER = List.of(
            "A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493",
            "N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854",
            "N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374",
            "R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870");
    private static final List<String> Q6_ANSWER = List.of("123141078.23");

    private Database database;
    private Session session;

    @BeforeAll
    void generate() {
        database = Database.inMemory();
        session = database.openSession();
        session.execute("CALL dbgen(sf => 1)").close();
    }

    @AfterAll
    void close() {
        session.close();
        database.close();
    }

    static List<String> queries() {
        return TpchReference.queryNames();
    }

    /** All 22 queries against PostgreSQL 15's answers on the same SF1 rows (see {@link TpchReference}). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void queryMatchesPostgresAnswer(String query) throws IOException {
        // A plan gone wrong (a join order multiplying rows) fails the query instead of stalling the suite.
        session.execute("SET statement_timeout = 60000").close();
        try {
            TpchReference.check(session, query, "sf1");
        } finally {
            session.execute("RESET statement_timeout").close();
        }
    }

    @Test
    void q1ParallelMatchesOfficialAnswer() throws IOException {
        assertEquals(Q1_ANSWER, run("q1.sql"));
    }

    @Test
    void q1SerialMatchesOfficialAnswer() throws IOException {
        session.execute("SET max_parallel_workers_per_gather = 0").close();
        try {
            assertEquals(Q1_ANSWER, run("q1.sql"));
        } finally {
            session.execute("RESET max_parallel_workers_per_gather").close();
        }
    }

    @Test
    void q6MatchesOfficialAnswer() throws IOException {
        assertEquals(Q6_ANSWER, run("q6.sql"));
    }

    @Test
    void q1PlansTwoWorkersByDefaultAndFollowsTheReloption() throws IOException {
        String sql = query("q1.sql");
        String plan = explain(sql);
        assertContains(plan, "Finalize GroupAggregate", "Finalize HashAggregate");
        assertContains(plan, "Workers Planned: 2");
        assertContains(plan, "Parallel Seq Scan on lineitem");
        session.execute("ALTER TABLE lineitem SET (parallel_workers = 1)").close();
        try {
            assertContains(explain(sql), "Workers Planned: 1");
        } finally {
            session.execute("ALTER TABLE lineitem RESET (parallel_workers)").close();
        }
        session.execute("SET max_parallel_workers_per_gather = 0").close();
        try {
            String serial = explain(sql);
            assertEquals(-1, serial.indexOf("Gather"), serial);
        } finally {
            session.execute("RESET max_parallel_workers_per_gather").close();
        }
    }

    private String explain(String sql) {
        StringBuilder plan = new StringBuilder();
        try (Result result = session.execute("EXPLAIN " + sql)) {
            for (List<Object> row : result.fetchAll()) {
                plan.append(row.get(0)).append('\n');
            }
        }
        return plan.toString();
    }

    private static void assertContains(String text, String... anyOf) {
        for (String candidate : anyOf) {
            if (text.contains(candidate)) {
                return;
            }
        }
        throw new AssertionError("expected one of " + List.of(anyOf) + " in:\n" + text);
    }

    private List<String> run(String file) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Result result = session.execute(query(file))) {
            for (List<Object> row : result.fetchAll()) {
                StringBuilder line = new StringBuilder();
                for (Object value : row) {
                    if (!line.isEmpty()) {
                        line.append('|');
                    }
                    line.append(value instanceof BigDecimal decimal ? decimal.setScale(2, RoundingMode.HALF_UP).toPlainString() : value);
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    static String query(String file) throws IOException {
        Path path = Path.of(System.getProperty("parallax.queries", "../queries"), "tpch", file);
        return Files.readString(path).strip().replaceAll(";$", "");
    }
}
