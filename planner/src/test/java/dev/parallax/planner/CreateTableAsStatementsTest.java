package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Notice;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.Session;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CREATE TABLE ... AS and SELECT ... INTO through the embedding API: PostgreSQL 15's command tags
 * and notice, the parallel insert plan with every row once, all or nothing (no table and no pages
 * left by a query failing midway), the table cataloged (visible to other sessions) only once filled.
 */
class CreateTableAsStatementsTest {
    private static final int ROWS = 200_000;

    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2));
        session = database.openSession();
        tag("create table src (id int, t text)");
        tag("insert into src select g, md5(g::text) from generate_series(1, " + ROWS + ") g");
        // Small enough that the test's source table gets workers.
        tag("set min_parallel_table_scan_size = 0");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private String tag(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result.commandTag();
        }
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    @Test
    void tagsCountsAndTheSkippingNoticeAreOfPostgres() {
        try (Result created = session.execute("create table small as select id, t from src where id <= 3")) {
            assertEquals("SELECT 3", created.commandTag());
            assertEquals(3, created.rowCount());
            assertEquals(List.of(), created.columns());
        }
        assertEquals("SELECT 2", tag("select id into small2 from src where id <= 2"));
        assertEquals("CREATE TABLE AS", tag("create table empty_copy as select * from src with no data"));
        assertEquals(List.of(List.of(0L)), rows("select count(*) from empty_copy"));
        try (Result skipped = session.execute("create table if not exists small as select 1")) {
            assertEquals("CREATE TABLE AS", skipped.commandTag());
            assertEquals(0, skipped.rowCount());
            assertEquals(List.of(new Notice(Notice.NOTICE, "relation \"small\" already exists, skipping", null, "42P07")),
                    skipped.messages());
        }
        ParallaxException exists = assertThrows(ParallaxException.class, () -> tag("create table small as select 1"));
        assertEquals(SqlState.DUPLICATE_TABLE, exists.state());
        assertEquals(List.of(List.of(3L)), rows("select count(*) from small"));
    }

    @Test
    void errorsInTheQueryPointIntoTheWholeStatement() {
        String sql = "create table bad (a) as select nope from src";
        ParallaxException unknown = assertThrows(ParallaxException.class, () -> tag(sql));
        assertEquals(SqlState.UNDEFINED_COLUMN, unknown.state());
        assertEquals(sql.indexOf("nope") + 1, unknown.position());
        String into = "select id, nope into bad from src";
        ParallaxException unknownInto = assertThrows(ParallaxException.class, () -> tag(into));
        assertEquals(into.indexOf("nope") + 1, unknownInto.position());
    }

    @Test
    void thePlanIsTheParallelInsertAndEveryRowArrivesOnce() {
        EngineServices services = database.engineServices();
        List<Table> made = new ArrayList<>();
        PlannedStatement planned = services.planInsertFromQuery("select id, t from src", session.settings(), columns -> {
            assertEquals(List.of(new ResultColumn("id", DataType.INTEGER), new ResultColumn("t", DataType.TEXT)), columns);
            Table table = new Table("probe", List.of(new ColumnDefinition("id", DataType.INTEGER, false),
                    new ColumnDefinition("t", DataType.TEXT, false)), services.createStorage(List.of(DataType.INTEGER, DataType.TEXT)));
            made.add(table);
            return table;
        });
        made.getFirst().storage().close();
        InsertNode insert = assertInstanceOf(InsertNode.class, planned.root());
        assertEquals(2, assertInstanceOf(GatherNode.class, insert.input()).workersPlanned());
        assertEquals("SELECT", planned.commandName());

        assertEquals("SELECT " + ROWS, tag("create table dst as select id, t from src"));
        String summary = "select count(*), count(distinct id), sum(id), sum(length(t)), min(t), max(t) from ";
        assertEquals(rows(summary + "src"), rows(summary + "dst"));
        assertEquals(List.of(List.of(0L)), rows("select count(*) from src s full join dst d on s.id = d.id and s.t = d.t "
                + "where s.id is null or d.id is null"));
    }

    @Test
    void aQueryFailingMidwayLeavesNoTableAndNoPages() {
        for (int workers : new int[] {2, 0}) {
            tag("set max_parallel_workers_per_gather = " + workers);
            long pagesBefore = database.memory().allocatedBytes(MemoryTag.PAGES);
            int pagesInUse = database.pageAllocator().pagesInUse();
            ParallaxException failure = assertThrows(ParallaxException.class,
                    () -> tag("create table broken as select id / (id - 150000) as q, t from src"));
            assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
            assertNull(database.catalog().findTable("broken"));
            assertEquals(pagesInUse, database.pageAllocator().pagesInUse(), "workers " + workers);
            assertTrue(database.memory().allocatedBytes(MemoryTag.PAGES) <= pagesBefore, "workers " + workers);
            assertThrows(ParallaxException.class, () -> tag("select id / (id - 150000) as q into broken from src"));
            assertNull(database.catalog().findTable("broken"));
            assertEquals(pagesInUse, database.pageAllocator().pagesInUse(), "workers " + workers);
        }
    }

    @Test
    void theTableIsCatalogedOnlyOnceItIsFilled() {
        List<Boolean> visibleWhileInserting = new ArrayList<>();
        EngineServices real = database.engineServices();
        // The real services, noting whether another session could find the table when its insert starts.
        EngineServices observing = new EngineServices() {
            @Override
            public PlannedStatement plan(String sql, dev.parallax.engine.settings.Settings settings) {
                return real.plan(sql, settings);
            }

            @Override
            public PlannedStatement planInsertFromQuery(String querySql, dev.parallax.engine.settings.Settings settings,
                                                        java.util.function.Function<List<ResultColumn>, Table> target) {
                return real.planInsertFromQuery(querySql, settings, target);
            }

            @Override
            public void checkSyntax(String sql) {
                real.checkSyntax(sql);
            }

            @Override
            public dev.parallax.engine.catalog.ColumnDefault planColumnDefault(String expressionText, ColumnDefinition column,
                                                                               dev.parallax.engine.settings.Settings settings) {
                return real.planColumnDefault(expressionText, column, settings);
            }

            @Override
            public dev.parallax.engine.expr.Expr planCheckCondition(String tableName, java.util.List<ColumnDefinition> columns,
                                                                    String expressionText, dev.parallax.engine.settings.Settings settings) {
                return real.planCheckCondition(tableName, columns, expressionText, settings);
            }

            @Override
            public dev.parallax.engine.exec.Operator open(dev.parallax.engine.plan.PlanNode root, dev.parallax.engine.exec.ExecutionContext context) {
                if (root instanceof InsertNode insert) {
                    visibleWhileInserting.add(database.catalog().findTable(insert.table().name()) != null);
                }
                return real.open(root, context);
            }

            @Override
            public List<String> explain(dev.parallax.engine.plan.PlanNode root, dev.parallax.planner.statement.ExplainOptions options) {
                return real.explain(root, options);
            }

            @Override
            public List<String> explainAnalyze(dev.parallax.engine.plan.PlanNode root, dev.parallax.planner.statement.ExplainOptions options,
                                               dev.parallax.engine.exec.ExecutionContext context) {
                return real.explainAnalyze(root, options, context);
            }

            @Override
            public dev.parallax.engine.storage.TableStorage createStorage(List<DataType> columnTypes) {
                return real.createStorage(columnTypes);
            }

            @Override
            public void generateTpch(double scaleFactor, dev.parallax.engine.exec.ExecutionContext context) {
                real.generateTpch(scaleFactor, context);
            }

            @Override
            public long copyFrom(Table table, int[] columns, java.nio.file.Path file, dev.parallax.engine.load.CopyFormat options,
                                 dev.parallax.engine.exec.ExecutionContext context) {
                return real.copyFrom(table, columns, file, options, context);
            }
        };
        try (SqlSession observed = new SqlSession(database, observing); Result created = observed.execute("create table filled as select * from src")) {
            assertEquals("SELECT " + ROWS, created.commandTag());
        }
        assertEquals(List.of(false), visibleWhileInserting);
        assertEquals(List.of(List.of((long) ROWS)), rows("select count(*) from filled"));
    }

    @Test
    void aPreparedCreateTableAsRunsOnEachExecute() {
        try (PreparedQuery prepared = session.prepare("create table prepared as select id from src where id <= 5")) {
            assertEquals(List.of(), prepared.columns());
            try (Result first = prepared.execute()) {
                assertEquals("SELECT 5", first.commandTag());
            }
            assertThrows(ParallaxException.class, prepared::execute);
        }
        assertEquals(List.of(List.of(15L)), rows("select sum(id) from prepared"));
    }
}
