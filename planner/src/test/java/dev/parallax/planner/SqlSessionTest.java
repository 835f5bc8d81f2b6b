package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.settings.SettingRegistry;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlSessionTest {
    private Database database;
    private FakePlanner planner;
    private SqlSession session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(64L << 20).withWorkerThreads(2));
        planner = new FakePlanner(database);
        session = new SqlSession(database, planner);
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private static ParallaxException failure(SqlState state, String message, Executable action) {
        ParallaxException failure = assertThrows(ParallaxException.class, action);
        assertEquals(state, failure.state());
        assertEquals(message, failure.getMessage());
        return failure;
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    // ---- DDL ----

    @Test
    void createAndDropTables() {
        Result created = session.execute("create table t (a integer not null, b text)");
        assertEquals("CREATE TABLE", created.commandTag());
        assertFalse(created.hasRows());
        Table table = database.catalog().table("t");
        assertEquals(List.of(DataType.INTEGER, DataType.TEXT), table.columnTypes());
        assertTrue(table.columns().getFirst().notNull());

        failure(SqlState.DUPLICATE_TABLE, "relation \"t\" already exists", () -> session.execute("create table T (x int)"));
        Result skipped = session.execute("create table if not exists t (x int)");
        assertEquals("CREATE TABLE", skipped.commandTag());
        assertEquals(List.of("relation \"t\" already exists, skipping"), skipped.notices());
        assertEquals(List.of(DataType.INTEGER, DataType.TEXT), database.catalog().table("t").columnTypes());

        // A missing name fails the whole DROP and leaves the existing table in place.
        failure(SqlState.UNDEFINED_TABLE, "table \"missing\" does not exist", () -> session.execute("drop table t, missing"));
        assertTrue(database.catalog().findTable("t") != null);

        Result dropped = session.execute("drop table if exists t, missing");
        assertEquals("DROP TABLE", dropped.commandTag());
        assertEquals(List.of("table \"missing\" does not exist, skipping"), dropped.notices());
        assertNull(database.catalog().findTable("t"));
    }

    @Test
    void createTableErrorsLeaveTheSessionUsable() {
        failure(SqlState.UNDEFINED_OBJECT, "type \"foo\" does not exist", () -> session.execute("create table t (a foo)"));
        failure(SqlState.DUPLICATE_COLUMN, "column \"a\" specified more than once", () -> session.execute("create table t (a int, a int)"));
        assertNull(database.catalog().findTable("t"));
        assertEquals("CREATE TABLE", session.execute("create table t (a int)").commandTag());
    }

    // ---- settings ----

    @Test
    void setShowAndReset() {
        assertEquals("SET", session.execute("set work_mem = '64MB'").commandTag());
        try (Result shown = session.execute("show work_mem")) {
            assertEquals(List.of(new ResultColumn("work_mem", DataType.TEXT)), shown.columns());
            assertEquals(List.of(List.of("64MB")), shown.fetchAll());
            assertEquals("SHOW", shown.commandTag());
        }
        assertEquals(List.of(List.of("UTC")), rows("show timezone"));
        assertEquals("TimeZone", session.execute("show timezone").columns().getFirst().name());

        assertEquals("RESET", session.execute("reset work_mem").commandTag());
        assertEquals(List.of(List.of("4MB")), rows("show work_mem"));

        session.execute("set max_parallel_workers_per_gather to 0");
        session.execute("set parallel_setup_cost = 10");
        session.execute("reset all");
        assertEquals(List.of(List.of("2")), rows("show max_parallel_workers_per_gather"));

        session.execute("set work_mem = 1024");
        assertEquals(List.of(List.of("1MB")), rows("show work_mem"));
        session.execute("set work_mem to default");
        assertEquals(List.of(List.of("4MB")), rows("show work_mem"));

        Result local = session.execute("set local work_mem = '8MB'");
        assertEquals(List.of("SET LOCAL can only be used in transaction blocks"), local.notices());
        assertEquals(List.of(List.of("4MB")), rows("show work_mem"));

        List<List<Object>> all = rows("show all");
        assertEquals(SettingRegistry.all().size(), all.size());
        assertTrue(all.contains(List.of("work_mem", "4MB", SettingRegistry.find("work_mem").description())));
    }

    @Test
    void settingErrors() {
        failure(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"nope\"", () -> session.execute("show nope"));
        failure(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"nope\"", () -> session.execute("set nope = 1"));
        failure(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"max_parallel_workers_per_gather\": \"x\"",
                () -> session.execute("set max_parallel_workers_per_gather = x"));
        failure(SqlState.INVALID_PARAMETER_VALUE, "parameter \"parallel_leader_participation\" requires a Boolean value",
                () -> session.execute("set parallel_leader_participation = maybe"));
        assertEquals(List.of(List.of("2")), rows("show max_parallel_workers_per_gather"));
    }

    // ---- ALTER TABLE ----

    @Test
    void alterTableParallelWorkers() {
        session.execute("create table t (a int)");
        long version = database.catalog().version();
        assertEquals("ALTER TABLE", session.execute("alter table t set (parallel_workers = 3)").commandTag());
        assertEquals(OptionalInt.of(3), database.catalog().table("t").parallelWorkers());
        assertTrue(database.catalog().version() > version);

        ParallaxException outOfRange = failure(SqlState.INVALID_PARAMETER_VALUE, "value 2000 out of bounds for option \"parallel_workers\"",
                () -> session.execute("alter table t set (parallel_workers = 2000)"));
        assertEquals("Valid values are between \"0\" and \"1024\".", outOfRange.detail());
        failure(SqlState.INVALID_PARAMETER_VALUE, "invalid value for integer option \"parallel_workers\": abc",
                () -> session.execute("alter table t set (parallel_workers = abc)"));
        failure(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"fillfactor2\"",
                () -> session.execute("alter table t set (fillfactor2 = 1)"));
        assertEquals(OptionalInt.of(3), database.catalog().table("t").parallelWorkers());

        session.execute("alter table t reset (parallel_workers)");
        assertEquals(OptionalInt.empty(), database.catalog().table("t").parallelWorkers());
        failure(SqlState.UNDEFINED_TABLE, "relation \"nope\" does not exist", () -> session.execute("alter table nope set (parallel_workers = 1)"));
    }

    // ---- other utility statements ----

    @Test
    void emptyStatementsTransactionsAndCall() {
        Result empty = session.execute("  -- just a comment");
        assertEquals("", empty.commandTag());
        assertFalse(empty.hasRows());
        assertEquals("BEGIN", session.execute("begin").commandTag());
        assertEquals("COMMIT", session.execute("commit").commandTag());
        Result commit = session.execute("commit");
        assertEquals("COMMIT", commit.commandTag());
        assertEquals(List.of("there is no transaction in progress"), commit.notices());
        failure(SqlState.UNDEFINED_FUNCTION, "procedure nope(numeric) does not exist", () -> session.execute("call nope(1)"));
        failure(SqlState.INVALID_PARAMETER_VALUE, "dbgen scale factor must be positive: -1", () -> session.execute("call dbgen(sf => -1)"));
    }

    @Test
    void copyChecksTableColumnsAndFile() {
        session.execute("create table t (a int, b text)");
        failure(SqlState.UNDEFINED_TABLE, "relation \"nope\" does not exist", () -> session.execute("copy nope from '/x'"));
        failure(SqlState.UNDEFINED_COLUMN, "column \"c\" of relation \"t\" does not exist", () -> session.execute("copy t (a, c) from '/x'"));
        failure(SqlState.UNDEFINED_FILE, "could not open file \"/no/such/file.csv\" for reading: No such file or directory",
                () -> session.execute("copy t from '/no/such/file.csv' (format csv)"));
    }

    // ---- queries through the (fake) planner and the real executor ----

    private Table createNumbers() {
        session.execute("create table numbers (n bigint, label text)");
        return database.catalog().table("numbers");
    }

    private static PlannedStatement insertPlan(Table table) {
        List<List<Expr>> rows = List.of(
                List.of(new Parameter(0, DataType.BIGINT), new Literal("one".getBytes(java.nio.charset.StandardCharsets.UTF_8), DataType.TEXT)),
                List.of(new Parameter(1, DataType.BIGINT), Literal.nullOf(DataType.TEXT)));
        ValuesNode values = new ValuesNode(rows, List.of(DataType.BIGINT, DataType.TEXT), PlanEstimate.UNKNOWN);
        return new PlannedStatement(new InsertNode(table, values, PlanEstimate.UNKNOWN), List.of(),
                List.of(DataType.BIGINT, DataType.BIGINT), false, "INSERT");
    }

    private static PlannedStatement scanPlan(Table table) {
        return new PlannedStatement(new SeqScanNode(table, new int[] {0, 1}, false, PlanEstimate.UNKNOWN),
                List.of(new ResultColumn("n", DataType.BIGINT), new ResultColumn("label", DataType.TEXT)), List.of(), true, "SELECT");
    }

    private static PlannedStatement seriesPlan() {
        GenerateSeriesNode series = new GenerateSeriesNode(new Parameter(0, DataType.BIGINT), new Parameter(1, DataType.BIGINT),
                null, DataType.BIGINT, PlanEstimate.UNKNOWN);
        return new PlannedStatement(series, List.of(new ResultColumn("generate_series", DataType.BIGINT)),
                List.of(DataType.BIGINT, DataType.BIGINT), true, "SELECT");
    }

    @Test
    void insertThenSelectThroughTheExecutor() {
        Table table = createNumbers();
        planner.define("insert into numbers values ($1, 'one'), ($2, null)", () -> insertPlan(table));
        planner.define("select * from numbers", () -> scanPlan(table));

        Result inserted = session.execute("insert into numbers values ($1, 'one'), ($2, null)", 7, 8L);
        assertEquals("INSERT 0 2", inserted.commandTag());
        assertEquals(2, inserted.rowCount());

        try (Result selected = session.execute("select * from numbers")) {
            assertEquals(List.of(new ResultColumn("n", DataType.BIGINT), new ResultColumn("label", DataType.TEXT)), selected.columns());
            assertEquals(List.of(List.of(7L, "one"), java.util.Arrays.asList(8L, null)), selected.fetchAll());
            assertEquals("SELECT 2", selected.commandTag());
        }
        failure(SqlState.UNDEFINED_PARAMETER, "there is no parameter $1",
                () -> session.execute("insert into numbers values ($1, 'one'), ($2, null)"));
    }

    @Test
    void preparedStatementsPlanOnceAndBindEachTime() {
        planner.define("select * from generate_series($1, $2)", SqlSessionTest::seriesPlan);
        PreparedQuery prepared = session.prepare("select * from generate_series($1, $2)");
        assertEquals(List.of(DataType.BIGINT, DataType.BIGINT), prepared.parameterTypes());
        assertEquals(List.of(new ResultColumn("generate_series", DataType.BIGINT)), prepared.columns());
        try (Result result = prepared.execute(1, 3L)) {
            assertEquals(List.of(List.of(1L), List.of(2L), List.of(3L)), result.fetchAll());
        }
        try (Result result = prepared.execute("5", new java.math.BigDecimal("6"))) {
            assertEquals(List.of(List.of(5L), List.of(6L)), result.fetchAll());
        }
        failure(SqlState.PROTOCOL_VIOLATION, "bind message supplies 1 parameters, but prepared statement \"\" requires 2",
                () -> prepared.execute(1));
        failure(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bigint: \"abc\"", () -> prepared.execute("abc", 1));
        failure(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range", () -> prepared.execute(1e300, 1));
        assertEquals(1, planner.planned.size());
        prepared.close();
        failure(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"\" does not exist", () -> prepared.execute(1, 2));
    }

    @Test
    void planCacheSkipsPlanningUntilSettingsOrCatalogChange() {
        planner.define("select * from generate_series($1, $2)", SqlSessionTest::seriesPlan);
        String sql = "select * from generate_series($1, $2)";
        assertEquals(List.of(List.of(1L)), session.execute(sql, 1, 1).fetchAll());
        assertEquals(List.of(List.of(2L)), session.execute(sql, 2, 2).fetchAll());
        assertEquals(1, planner.planned.size());

        session.execute("set max_parallel_workers_per_gather = 0");
        session.execute(sql, 1, 1).close();
        assertEquals(2, planner.planned.size());
        assertEquals("0", planner.settingsSeen.getLast().show("max_parallel_workers_per_gather"));

        session.execute("create table other (a int)");
        session.execute(sql, 1, 1).close();
        assertEquals(3, planner.planned.size());
        session.execute(sql, 1, 1).close();
        assertEquals(3, planner.planned.size());
    }

    @Test
    void cachedScanIsReplannedWhenTheTableGrows() {
        Table table = createNumbers();
        planner.define("insert", () -> insertPlan(table));
        planner.define("select * from numbers", () -> scanPlan(table));
        assertEquals(List.of(), rows("select * from numbers"));
        session.execute("insert", 1, 2);
        assertEquals(2, rows("select * from numbers").size());
        assertEquals(List.of("select * from numbers", "insert", "select * from numbers"), planner.planned);
    }

    @Test
    void cancelFromAnotherThreadStopsTheRunningQuery() throws Exception {
        planner.define("series", SqlSessionTest::seriesPlan);
        Result result = session.execute("series", 1L, Long.MAX_VALUE - 1);
        CountDownLatch started = new CountDownLatch(1);
        Thread canceller = new Thread(() -> {
            try {
                started.await(5, TimeUnit.SECONDS);
                Thread.sleep(50);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            session.cancel();
        });
        canceller.start();
        ParallaxException cancelled = failure(SqlState.QUERY_CANCELED, "canceling statement due to user request", () -> {
            while (result.nextBatch() != null) {
                started.countDown();
            }
        });
        canceller.join();
        assertTrue(cancelled.getMessage().contains("user request"));
        assertNull(result.nextBatch());
        // The session goes on.
        assertEquals(List.of(List.of(1L), List.of(2L)), session.execute("series", 1, 2).fetchAll());
    }

    @Test
    void statementTimeoutCancelsSlowQueries() {
        planner.define("series", SqlSessionTest::seriesPlan);
        session.execute("set statement_timeout = 50");
        try (Result result = session.execute("series", 1L, Long.MAX_VALUE - 1)) {
            failure(SqlState.QUERY_CANCELED, "canceling statement due to statement timeout", () -> {
                while (result.nextBatch() != null) {
                    Thread.onSpinWait();
                }
            });
        }
    }

    @Test
    void explainAndExplainAnalyze() {
        planner.define("select * from generate_series(1, 3)", () -> {
            GenerateSeriesNode series = new GenerateSeriesNode(Literal.ofLong(1, DataType.BIGINT), Literal.ofLong(3, DataType.BIGINT),
                    null, DataType.BIGINT, PlanEstimate.UNKNOWN);
            return new PlannedStatement(series, List.of(new ResultColumn("generate_series", DataType.BIGINT)), List.of(), true, "SELECT");
        });
        try (Result explained = session.execute("explain (costs off) select * from generate_series(1, 3)")) {
            assertEquals(List.of(new ResultColumn("QUERY PLAN", DataType.TEXT)), explained.columns());
            assertEquals(List.of(List.of("GenerateSeriesNode")), explained.fetchAll());
            assertEquals("EXPLAIN", explained.commandTag());
        }
        List<List<Object>> analyzed = rows("explain analyze select * from generate_series(1, 3)");
        assertEquals(3, analyzed.size());
        assertEquals("GenerateSeriesNode (actual rows=3 loops=1)", analyzed.get(0).getFirst());
        assertTrue(((String) analyzed.get(1).getFirst()).matches("Planning Time: \\d+\\.\\d{3} ms"), analyzed.toString());
        assertTrue(((String) analyzed.get(2).getFirst()).matches("Execution Time: \\d+\\.\\d{3} ms"), analyzed.toString());

        // Errors in the explained query point into the whole EXPLAIN text.
        ParallaxException syntax = failure(SqlState.SYNTAX_ERROR, "syntax error at or near \"bogus\"", () -> session.execute("explain bogus"));
        assertEquals(3 + "explain ".length(), syntax.position());
    }

    @Test
    void closingTheSessionClosesOpenResults() {
        planner.define("series", SqlSessionTest::seriesPlan);
        Result result = session.execute("series", 1L, 1_000_000L);
        assertTrue(result.nextBatch() != null);
        session.close();
        assertNull(result.nextBatch());
        failure(SqlState.CONNECTION_FAILURE, "the session is closed", () -> session.execute("select 1"));
    }
}
