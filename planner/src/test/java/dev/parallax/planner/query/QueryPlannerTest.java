package dev.parallax.planner.query;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.StorageParameters;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryPlannerTest {
    private static final long SF1_LINEITEM_BYTES = 900L * 1024 * 1024;

    private final Catalog catalog = new Catalog();
    private final QueryPlanner planner = new QueryPlanner(catalog);
    private final Settings settings = new Settings();
    private final Table lineitem;

    QueryPlannerTest() {
        lineitem = table("lineitem", 6_001_215, SF1_LINEITEM_BYTES, List.of(
                column("l_orderkey", DataType.BIGINT), column("l_partkey", DataType.BIGINT),
                column("l_suppkey", DataType.BIGINT), column("l_linenumber", DataType.INTEGER),
                column("l_quantity", DataType.decimal(15, 2)), column("l_extendedprice", DataType.decimal(15, 2)),
                column("l_discount", DataType.decimal(15, 2)), column("l_tax", DataType.decimal(15, 2)),
                column("l_returnflag", DataType.charType(1)), column("l_linestatus", DataType.charType(1)),
                column("l_shipdate", DataType.DATE), column("l_commitdate", DataType.DATE),
                column("l_receiptdate", DataType.DATE), column("l_shipinstruct", DataType.charType(25)),
                column("l_shipmode", DataType.charType(10)), column("l_comment", DataType.varchar(44))));
        table("small", 100, 8192, List.of(column("id", DataType.INTEGER), column("name", DataType.TEXT),
                column("bits", DataType.bit(8)), column("price", DataType.decimal(10, 2))));
        table("other", 100, 8192, List.of(column("id", DataType.INTEGER)));
    }

    private Table table(String name, long rows, long bytes, List<ColumnDefinition> columns) {
        Table table = new Table(name, columns, new FakeStorage(columns.stream().map(ColumnDefinition::type).toList(), rows, bytes));
        catalog.addTable(table);
        return table;
    }

    private static ColumnDefinition column(String name, DataType type) {
        return new ColumnDefinition(name, type, false);
    }

    private static String query(String name) throws IOException {
        return Files.readString(Path.of("../queries/tpch", name));
    }

    private String shape(String sql) {
        return PlanDump.dump(planner.plan(sql, settings).root());
    }

    @Test
    void tpchQ1HasPostgresParallelShape() throws IOException {
        PlannedQuery planned = planner.plan(query("q1.sql"), settings);
        assertEquals("""
                Sort 2
                  Finalize Aggregate keys=[0, 1] calls=8
                    Gather workers=2
                      Partial Aggregate keys=[0, 1] calls=8
                        Project 7
                          Filter
                            Parallel Seq Scan on lineitem [4, 5, 6, 7, 8, 9, 10]
                """, PlanDump.dump(planned.root()));
        assertEquals(List.of("l_returnflag", "l_linestatus", "sum_qty", "sum_base_price", "sum_disc_price", "sum_charge",
                "avg_qty", "avg_price", "avg_disc", "count_order"), planned.columns().stream().map(c -> c.name()).toList());
        assertEquals(DataType.decimal(18, 2), planned.columns().get(2).type());
        assertEquals(DataType.decimal(18, 6), planned.columns().get(6).type());
        assertEquals(DataType.BIGINT, planned.columns().get(9).type());
        assertEquals("SELECT", planned.commandName());
    }

    @Test
    void q1FilterFoldsTheDateArithmetic() throws IOException {
        PlanNode node = planner.plan(query("q1.sql"), settings).root();
        while (!(node instanceof FilterNode)) {
            node = node.inputs().getFirst();
        }
        Call condition = (Call) ((FilterNode) node).condition();
        assertEquals(Function.LESS_THAN_OR_EQUAL, condition.function());
        // 1998-12-01 minus 90 days is 1998-09-02 = day 10471 since 1970-01-01.
        assertEquals(Literal.ofLong(10471, DataType.DATE), condition.arguments().get(1));
    }

    @Test
    void tpchQ6HasPostgresParallelShape() throws IOException {
        assertEquals("""
                Finalize Aggregate keys=[] calls=1
                  Gather workers=2
                    Partial Aggregate keys=[] calls=1
                      Project 1
                        Filter
                          Parallel Seq Scan on lineitem [4, 5, 6, 10]
                """, shape(query("q6.sql")));
    }

    @Test
    void reloptionPlansOneWorker() throws IOException {
        lineitem.setStorageParameters(StorageParameters.NONE.with(java.util.Map.of("parallel_workers", "1"), false));
        assertEquals(1, gather(planner.plan(query("q1.sql"), settings).root()).workersPlanned());
    }

    @Test
    void noGatherWithoutWorkersPerGather() throws IOException {
        settings.set("max_parallel_workers_per_gather", "0");
        assertEquals("""
                Sort 2
                  Aggregate keys=[0, 1] calls=8
                    Project 7
                      Filter
                        Seq Scan on lineitem [4, 5, 6, 7, 8, 9, 10]
                """, shape(query("q1.sql")));
    }

    @Test
    void unionAllAppendsWithAGatherPerLargeInputAndUnionAggregatesOnEveryColumn() {
        assertEquals("""
                Append 2
                  Gather workers=2
                    Filter
                      Parallel Seq Scan on lineitem [0]
                  Project 1
                    Seq Scan on small [0]
                """, shape("select l_orderkey from lineitem where l_orderkey = 5 union all select id from small"));
        assertEquals("""
                Aggregate keys=[0, 1] calls=0
                  Append 2
                    Seq Scan on small [0, 1]
                    Seq Scan on small [0, 1]
                """, shape("select id, name from small union select id, name from small"));
        PlannedQuery planned = planner.plan("select id as n from small union all select 2.5", settings);
        assertEquals(List.of("n"), planned.columns().stream().map(c -> c.name()).toList());
        assertEquals(dev.parallax.engine.type.TypeKind.DECIMAL, planned.columns().getFirst().type().kind());
    }

    @Test
    void smallTablesStaySerialUnlessForced() {
        assertEquals("Seq Scan on small [0]\n", shape("select id from small"));
        settings.set("debug_parallel_query", "on");
        assertEquals("Gather workers=1 single\n  Seq Scan on small [0]\n", shape("select id from small"));
    }

    @Test
    void orderByLimitSortsTopNInEveryParticipantUnderGatherMerge() {
        settings.set("parallel_setup_cost", "0");
        settings.set("parallel_tuple_cost", "0");
        assertEquals("""
                Limit
                  Gather Merge workers=2 keys=1
                    Sort 1 top 10
                      Filter
                        Parallel Seq Scan on lineitem [0]
                """, shape("select l_orderkey from lineitem where l_orderkey < 5 order by 1 limit 10"));
        assertEquals("""
                Limit
                  Gather Merge workers=2 keys=1
                    Sort 1 top 25
                      Parallel Seq Scan on lineitem [0]
                """, shape("select l_orderkey from lineitem order by 1 limit 10 offset 15"));
    }

    @Test
    void gatherMergeIsChosenByCost() {
        // As in PostgreSQL: passing every row to the leader costs more than the workers' sorts save...
        assertEquals("""
                Sort 2
                  Seq Scan on lineitem [0, 10]
                """, shape("select l_orderkey, l_shipdate from lineitem order by l_shipdate desc, l_orderkey"));
        // ...but under a LIMIT only the first rows of each participant travel.
        assertEquals("""
                Limit
                  Gather Merge workers=2 keys=2
                    Sort 2 top 5
                      Parallel Seq Scan on lineitem [0, 10]
                """, shape("select l_orderkey, l_shipdate from lineitem order by l_shipdate desc, l_orderkey limit 5"));
        settings.set("parallel_tuple_cost", "0.001");
        assertEquals("""
                Gather Merge workers=2 keys=2
                  Sort 2
                    Parallel Seq Scan on lineitem [0, 10]
                """, shape("select l_orderkey, l_shipdate from lineitem order by l_shipdate desc, l_orderkey"));
        // A parameter limit cannot bound the sorts; the Limit above still applies it.
        assertEquals("""
                Limit
                  Gather Merge workers=2 keys=1
                    Sort 1
                      Parallel Seq Scan on lineitem [0]
                """, shape("select l_orderkey from lineitem order by 1 limit $1"));
        PlanNode root = planner.plan("select l_orderkey from lineitem order by 1", settings).root();
        GatherMergeNode gatherMerge = assertInstanceOf(GatherMergeNode.class, root);
        SortNode sort = assertInstanceOf(SortNode.class, gatherMerge.input());
        assertEquals(List.of(new SortKey(0, false, false)), gatherMerge.keys());
        assertEquals(gatherMerge.keys(), sort.keys());
        // Rows per participant below, all of them above: 6001215 / 2.4.
        assertEquals(2_500_506, sort.estimate().rows());
        assertEquals(6_001_215, gatherMerge.estimate().rows());
        assertTrue(gatherMerge.estimate().totalCost() > sort.estimate().totalCost());
    }

    @Test
    void orderByStaysSerialWithoutWorkersAndAboveAggregates() throws IOException {
        settings.set("max_parallel_workers_per_gather", "0");
        assertEquals("""
                Limit
                  Sort 1 top 3
                    Seq Scan on lineitem [0]
                """, shape("select l_orderkey from lineitem order by 1 desc limit 3"));
        settings.set("max_parallel_workers_per_gather", "2");
        assertEquals("Sort 1\n  Seq Scan on small [0]\n", shape("select id from small order by id"));
        String q1 = shape(query("q1.sql"));
        assertTrue(q1.startsWith("Sort 2\n  Finalize Aggregate"), q1);
    }

    @Test
    void randomKeepsThePlanSerial() {
        settings.set("parallel_setup_cost", "0");
        assertEquals("Project 1\n  Seq Scan on lineitem [0]\n", shape("select l_orderkey + random() from lineitem"));
    }

    @Test
    void withQueryColumnsAreNamedByTheBody() {
        PlannedQuery planned = planner.plan("with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) "
                + "select count(*), max(n) + 1, n from r group by n", settings);
        assertEquals(List.of("count", "?column?", "n"), planned.columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void functionCallsAreNamedAfterTheFunctionAndOperatorsAreNot() {
        // Names as PostgreSQL 15 gives them (psql): mod | ?column? | abs | ln | sign | width_bucket | ?column? | ?column? | interval | int8
        PlannedQuery planned = planner.plan("select mod(7, 3), 7 % 3, abs(-1), ln(2), sign(1), width_bucket(1, 0, 2, 2), "
                + "|/ 4, 1 << 2, '1 day'::interval, 1::int8", settings);
        assertEquals(List.of("mod", "?column?", "abs", "ln", "sign", "width_bucket", "?column?", "?column?", "interval", "int8"),
                planned.columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void postgresSyntaxPieces() {
        PlannedQuery planned = planner.plan(
                "SELECT id::int8, name::text, bits & B'1010' AS anded, bits | B'0001' # B'0011', ~bits, bitand(bits, B'11110000'), "
                        + "$1::numeric(10,2) + price, md5(name), now(), random(), clock_timestamp(), interval '3 months', "
                        + "CAST(id AS int4) FROM small WHERE \"name\" = 'x' /* comment */ -- trailing\n", settings);
        assertEquals(List.of("id", "name", "anded", "?column?", "?column?", "bitand", "?column?", "md5", "now", "random",
                "clock_timestamp", "interval", "id"), planned.columns().stream().map(c -> c.name()).toList());
        assertEquals(List.of(DataType.BIGINT, DataType.TEXT, DataType.bit(8)), planned.columns().stream().limit(3).map(c -> c.type()).toList());
        assertEquals(List.of(DataType.decimal(10, 2)), planned.parameterTypes());
        assertEquals(DataType.INTERVAL_YEAR_MONTH, planned.columns().get(11).type());
    }

    @Test
    void generateSeriesInFrom() {
        PlannedQuery planned = planner.plan("select generate_series from generate_series(1, 10)", settings);
        assertEquals("Function Scan on generate_series\n", PlanDump.dump(planned.root()));
        assertEquals(DataType.INTEGER, planned.columns().getFirst().type());
    }

    @Test
    void insertValuesCastsToColumnTypesAndFillsNulls() {
        PlannedQuery planned = planner.plan("insert into small (id, price) values (1, 2.5), (2, 3)", settings);
        assertEquals("INSERT", planned.commandName());
        assertEquals(false, planned.returnsRows());
        assertEquals(catalog.table("small").columnTypes(), planned.root().inputs().getFirst().outputTypes());
    }

    @Test
    void errorsCarryPostgresStates() {
        assertError(SqlState.SYNTAX_ERROR, "syntax error at or near \"from\"", 8, "select from from small");
        assertError(SqlState.UNDEFINED_TABLE, "relation \"nope\" does not exist", 15, "select 1 from nope");
        assertError(SqlState.UNDEFINED_COLUMN, "column \"nope\" does not exist", 8, "select nope from small");
        assertError(SqlState.UNDEFINED_FUNCTION, "function nope(text) does not exist", 0, "select nope(name) from small");
        assertError(SqlState.UNDEFINED_FUNCTION, "operator does not exist: integer = date", 0,
                "select 1 from small where id = date '2000-01-01'");
        assertError(SqlState.AMBIGUOUS_COLUMN, "column reference \"id\" is ambiguous", 0, "select id from small, other");
        assertError(SqlState.GROUPING_ERROR,
                "column \"name\" must appear in the GROUP BY clause or be used in an aggregate function", 0,
                "select name, count(*) from small group by id");
    }

    private void assertError(SqlState state, String message, int position, String sql) {
        ParallaxException error = assertThrows(ParallaxException.class, () -> planner.plan(sql, settings));
        assertEquals(state, error.state(), error.getMessage());
        assertEquals(message, error.getMessage());
        if (position > 0) {
            assertEquals(position, error.position());
        }
    }

    private static GatherNode gather(PlanNode node) {
        while (!(node instanceof GatherNode)) {
            node = node.inputs().getFirst();
        }
        return assertInstanceOf(GatherNode.class, node);
    }
}
