package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Result;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.statement.ExplainOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Texts that differ only in constants share one plan when its shape cannot depend on them (point
 * lookups, INSERT ... VALUES, UPDATE / DELETE by key), answer exactly as their own plans would, and
 * everything else is still planned from its text.
 */
class AutoParameterizationTest {
    private Database database;
    private CountingServices services;
    private SqlSession session;

    /** The real services, counting the statements planned. */
    private static final class CountingServices implements EngineServices {
        private final EngineServices real;
        int planned;
        int opened;

        CountingServices(EngineServices real) {
            this.real = real;
        }

        @Override
        public PlannedStatement plan(String sql, Settings settings) {
            planned++;
            return real.plan(sql, settings);
        }

        @Override
        public PlannedStatement planInsertFromQuery(String querySql, Settings settings,
                                                    java.util.function.Function<List<dev.parallax.ResultColumn>, Table> target) {
            planned++;
            return real.planInsertFromQuery(querySql, settings, target);
        }

        @Override
        public dev.parallax.engine.catalog.ColumnDefault planColumnDefault(String expressionText,
                dev.parallax.engine.catalog.ColumnDefinition column, dev.parallax.engine.settings.Settings settings) {
            return real.planColumnDefault(expressionText, column, settings);
        }

        @Override
        public dev.parallax.engine.expr.Expr planCheckCondition(String tableName,
                java.util.List<dev.parallax.engine.catalog.ColumnDefinition> columns, String expressionText,
                dev.parallax.engine.settings.Settings settings) {
            return real.planCheckCondition(tableName, columns, expressionText, settings);
        }

        @Override
        public void checkSyntax(String sql) {
            real.checkSyntax(sql);
        }

        @Override
        public Operator open(PlanNode root, ExecutionContext context) {
            opened++;
            return real.open(root, context);
        }

        @Override
        public List<String> explain(PlanNode root, ExplainOptions options) {
            return real.explain(root, options);
        }

        @Override
        public List<String> explainAnalyze(PlanNode root, ExplainOptions options, ExecutionContext context) {
            return real.explainAnalyze(root, options, context);
        }

        @Override
        public TableStorage createStorage(List<DataType> columnTypes) {
            return real.createStorage(columnTypes);
        }

        @Override
        public void generateTpch(double scaleFactor, ExecutionContext context) {
            real.generateTpch(scaleFactor, context);
        }

        @Override
        public long copyFrom(Table table, int[] columns, Path file, dev.parallax.engine.load.CopyFormat options, ExecutionContext context) {
            return real.copyFrom(table, columns, file, options, context);
        }
    }

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(256L << 20).withWorkerThreads(2));
        services = new CountingServices(database.engineServices());
        session = new SqlSession(database, services);
        run("create table test (id int primary key, info text)");
        run("create table p (id int primary key, info text) partition by hash (id) partitions 16");
        run("create table names (name varchar(20) primary key, n bigint)");
        run("insert into test select g, 'i' || g from generate_series(1, 100) g");
        run("insert into p select g, 'i' || g from generate_series(1, 100) g");
        run("insert into names values ('ann', 1), ('it''s', 2)");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private Result run(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result;
        }
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    @Test
    void pointSelectsShareOnePlanAndAnswerAlike() {
        for (String table : List.of("test", "p")) {
            assertEquals(List.of(List.of(1, "i1")), rows("select * from " + table + " where id = 1"));
            int plannedBefore = services.planned;
            for (int id = -3; id <= 105; id++) {
                List<List<Object>> expected = id >= 1 && id <= 100 ? List.of(List.of(id, "i" + id)) : List.of();
                assertEquals(expected, rows("select * from " + table + " where id = " + id), table + " " + id);
                assertEquals(expected.isEmpty() ? List.of() : List.of(List.of("i" + id)),
                        rows("select info from " + table + " where id = " + id));
            }
            // Only the first text of the second shape (select info) was planned: twice, as itself and as its shape.
            assertEquals(plannedBefore + 2, services.planned, table);
        }
        assertEquals(List.of(List.of(2L)), rows("select n from names where name = 'it''s'"));
        assertEquals(List.of(List.of(1L)), rows("select n from names where name = E'ann'"));
        assertEquals(List.of(), rows("select n from names where name = 'bob'"));
        assertEquals(List.of(List.of(2L)), rows("select n from names where name = $$it's$$"));
    }

    @Test
    void constantsTheSharedPlanCannotTakeUseTheirOwnPlan() {
        rows("select * from test where id = 1");
        rows("select * from test where id = 2");
        // Out of the integer column's range: PostgreSQL compares as bigint and finds nothing.
        assertEquals(List.of(), rows("select * from test where id = 3000000000"));
        assertEquals(List.of(List.of(7, "i7")), rows("select * from test where id = '7'"));
        ParallaxException invalid = assertThrows(ParallaxException.class, () -> rows("select * from test where id = 'seven'"));
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, invalid.state());
    }

    @Test
    void singleRowModificationsShareTheirPlans() {
        run("insert into test values (1001, 'a')");
        int plannedBefore = services.planned;
        for (int id = 1002; id <= 1020; id++) {
            assertEquals("INSERT 0 1", run("insert into test values (" + id + ", 'v" + id + "')").commandTag());
            assertEquals("UPDATE 1", run("update names set n = n + " + id + " where name = 'ann'").commandTag());
            assertEquals("INSERT 0 1", run("insert into test values (" + id + ", 'w') on conflict (id) do update set info = excluded.info").commandTag());
        }
        assertEquals("DELETE 1", run("delete from test where id = 1001").commandTag());
        assertEquals("DELETE 1", run("delete from test where id = 1002").commandTag());
        assertEquals("DELETE 0", run("delete from test where id = 1002").commandTag());
        // The first text of the UPDATE, upsert and DELETE shapes was planned as itself and as its shape.
        assertEquals(plannedBefore + 3 * 2, services.planned);
        assertEquals(List.of(List.of(1L + (1002 + 1020) * 19 / 2)), rows("select n from names where name = 'ann'"));
        assertEquals(List.of(List.of(1003, "w"), List.of(1020, "w")),
                rows("select * from test where id in (1003, 1020) order by id"));
        assertEquals(List.of(List.of(18L)), rows("select count(*) from test where id > 1000"));
        ParallaxException duplicate = assertThrows(ParallaxException.class, () -> run("insert into test values (1003, 'again')"));
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        // A bare constant in SET takes the column's type; a shape whose parameter types cannot be
        // inferred (info || $1) is not shared, and still answers.
        assertEquals("UPDATE 1", run("update test set info = 'v' where id = 1003").commandTag());
        assertEquals("UPDATE 1", run("update test set info = 'w' where id = 1003").commandTag());
        assertEquals("UPDATE 1", run("update test set info = info || 'y' where id = 1003").commandTag());
        assertEquals("UPDATE 1", run("update test set info = info || 'z' where id = 1003").commandTag());
        assertEquals(List.of(List.of("wyz")), rows("select info from test where id = 1003"));
    }

    @Test
    void singleRowUpsertsOfASharedShapeRunWithoutTheExecutor() {
        for (String table : List.of("test", "p")) {
            String upsert = "insert into " + table + " values (%d, '%s') on conflict (id) do update set info = excluded.info";
            String ignore = "insert into " + table + " values (%d, 'x') on conflict do nothing";
            String insert = "insert into " + table + " values (%d, 'plain')";
            assertEquals("INSERT 0 1", run(String.format(upsert, 5, "first")).commandTag());
            assertEquals("INSERT 0 0", run(String.format(ignore, 6)).commandTag());
            assertEquals("INSERT 0 1", run(String.format(insert, 500)).commandTag());
            int openedBefore = services.opened;
            int plannedBefore = services.planned;
            int inserted = 0;
            for (int id = 1; id <= 200; id += 7) {
                assertEquals("INSERT 0 1", run(String.format(upsert, id, "u" + id)).commandTag(), table + " " + id);
                inserted += id > 100 ? 1 : 0;
            }
            assertEquals("INSERT 0 0", run(String.format(ignore, 8)).commandTag());
            assertEquals("INSERT 0 1", run(String.format(ignore, 1000)).commandTag());
            assertEquals("INSERT 0 1", run(String.format(insert, 501)).commandTag());
            ParallaxException duplicate = assertThrows(ParallaxException.class, () -> run(String.format(insert, 15)));
            assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
            assertEquals(openedBefore, services.opened, table + ": executions without the executor");
            assertEquals(plannedBefore, services.planned, table);
            assertEquals(List.of(List.of(100L + 1 + inserted + 2)), rows("select count(*) from " + table), table);
            assertEquals(List.of(List.of(8, "u8"), List.of(9, "i9"), List.of(15, "u15"), List.of(197, "u197"), List.of(1000, "x")),
                    rows("select * from " + table + " where id in (8, 9, 15, 197, 1000) order by id"), table);
        }
    }

    @Test
    void scansAndAggregatesArePlannedFromTheirText() {
        assertEquals(List.of(List.of(4L)), rows("select count(*) from test where id < 5"));
        int plannedBefore = services.planned;
        assertEquals(List.of(List.of(9L)), rows("select count(*) from test where id < 10"));
        assertEquals(List.of(List.of(19L)), rows("select count(*) from test where id < 20"));
        assertEquals(plannedBefore + 2, services.planned);
    }

    @Test
    void ddlInvalidatesSharedPlans() {
        rows("select * from test where id = 1");
        assertEquals(List.of(List.of(2, "i2")), rows("select * from test where id = 2"));
        run("drop table test");
        run("create table test (id bigint primary key, info text)");
        run("insert into test values (5000000000, 'big'), (2, 'two')");
        assertEquals(List.of(List.of(2L, "two")), rows("select * from test where id = 2"));
        assertEquals(List.of(List.of(5000000000L, "big")), rows("select * from test where id = 5000000000"));
    }

    @Test
    void sharedModificationsCountInATransactionBlock() {
        run("insert into test values (2001, 'a')");
        run("insert into test values (2002, 'b')");
        run("begin");
        run("insert into test values (2003, 'c')");
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, assertThrows(ParallaxException.class, () -> run("rollback")).state());
        assertEquals(List.of(List.of(2003, "c")), rows("select * from test where id = 2003"));
    }
}
