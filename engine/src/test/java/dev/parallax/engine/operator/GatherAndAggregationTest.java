package dev.parallax.engine.operator;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Executor;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.operator.aggregate.AggregateStates;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatherAndAggregationTest {
    private static final WorkerPool WORKERS = new WorkerPool(4, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final DataType FLAG = DataType.charType(1);

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    /** Rows (flag char(1), status char(1), quantity numeric(15,2), id bigint); every 7th quantity is NULL. */
    private static Table lineitems(int count) {
        List<List<Object>> rows = new ArrayList<>();
        String[] flags = {"A", "N", "R"};
        for (long id = 0; id < count; id++) {
            rows.add(row(flags[(int) (id % 3)], id % 2 == 0 ? "F" : "O", id % 7 == 0 ? null : id * 25 + 1, id));
        }
        return TestExecution.table("lineitem", List.of("l_returnflag", "l_linestatus", "l_quantity", "l_id"),
                List.of(FLAG, FLAG, MONEY, DataType.BIGINT), 5, rows);
    }

    private static AggregateCall call(AggregateFunction function, int argument, boolean distinct, DataType argumentType, DataType resultType, String name) {
        return new AggregateCall(function, argument, distinct, argumentType, resultType,
                AggregateStates.stateTypes(function, argumentType, resultType), name);
    }

    private static List<AggregateCall> q1Calls() {
        return List.of(
                call(AggregateFunction.SUM, 2, false, MONEY, DataType.decimal(18, 2), "sum(l_quantity)"),
                call(AggregateFunction.AVG, 2, false, MONEY, DataType.decimal(18, 6), "avg(l_quantity)"),
                call(AggregateFunction.COUNT_STAR, -1, false, null, DataType.BIGINT, "count(*)"),
                call(AggregateFunction.COUNT, 2, false, MONEY, DataType.BIGINT, "count(l_quantity)"),
                call(AggregateFunction.MIN, 3, false, DataType.BIGINT, DataType.BIGINT, "min(l_id)"),
                call(AggregateFunction.MAX, 0, false, FLAG, FLAG, "max(l_returnflag)"));
    }

    private static ExecutionContext context(Settings settings) {
        return TestExecution.context(WORKERS, settings);
    }

    private static PlanNode parallelAggregate(Table table, int[] keys, List<AggregateCall> calls, int workers) {
        AggregateNode partial = new AggregateNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, true, ESTIMATE), AggregateMode.PARTIAL, keys, calls, ESTIMATE);
        int[] finalKeys = new int[keys.length];
        for (int index = 0; index < keys.length; index++) {
            finalKeys[index] = index;
        }
        return new AggregateNode(new GatherNode(partial, workers, false, ESTIMATE), AggregateMode.FINAL, finalKeys, calls, ESTIMATE);
    }

    @Test
    void gatherReturnsTheSameRowsForAnyWorkerCountAndLeaderParticipation() {
        Table table = lineitems(500);
        List<List<Object>> serial = TestExecution.sorted(TestExecution.run(new SeqScanNode(table, new int[]{3, 0}, false, ESTIMATE), context(new Settings())));
        for (int workers : new int[]{0, 1, 2, 4}) {
            for (String leader : new String[]{"on", "off"}) {
                for (String chunk : new String[]{"0", "1"}) {
                    Settings settings = new Settings();
                    settings.set("parallel_leader_participation", leader);
                    settings.set("parallel_scan_chunk_pages", chunk);
                    GatherNode gather = new GatherNode(new SeqScanNode(table, new int[]{3, 0}, true, ESTIMATE), workers, false, ESTIMATE);
                    assertEquals(serial, TestExecution.sorted(TestExecution.run(gather, context(settings))),
                            "workers=" + workers + " leader=" + leader + " chunk=" + chunk);
                }
            }
        }
        assertEquals(8, WORKERS.idleWorkers());
    }

    @Test
    void singleCopyGatherRunsTheInputOnce() {
        Table table = lineitems(100);
        GatherNode gather = new GatherNode(new SeqScanNode(table, new int[]{3}, true, ESTIMATE), 1, true, ESTIMATE);
        assertEquals(100, TestExecution.run(gather, context(new Settings())).size());
    }

    @Test
    void workerFailureReachesTheLeaderWithItsSqlStateAndWorkersAreReleased() {
        Table table = lineitems(400);
        ((InMemoryTableStorage) table.storage()).failOnPage(57);
        Settings settings = new Settings();
        settings.set("parallel_leader_participation", "off");
        settings.set("parallel_scan_chunk_pages", "1");
        GatherNode gather = new GatherNode(new SeqScanNode(table, new int[]{3}, true, ESTIMATE), 2, false, ESTIMATE);
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TestExecution.run(gather, context(settings)));
        assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
        assertEquals("division by zero", failure.getMessage());
        assertEquals(8, WORKERS.idleWorkers());
    }

    @Test
    void cancellationStopsWorkersAndLeader() {
        Table table = lineitems(400);
        ExecutionContext context = context(new Settings());
        GatherNode gather = new GatherNode(new SeqScanNode(table, new int[]{3}, true, ESTIMATE), 2, false, ESTIMATE);
        ParallaxException failure;
        try (Operator operator = Executor.open(gather, context)) {
            operator.next();
            context.cancel("canceling statement due to user request");
            failure = assertThrows(ParallaxException.class, () -> {
                while (operator.next() != null) {
                    // drain until the cancellation is noticed
                }
            });
        }
        assertEquals(SqlState.QUERY_CANCELED, failure.state());
        assertEquals(8, WORKERS.idleWorkers());
    }

    @Test
    void groupedAggregateComputesEveryFunctionWithNulls() {
        Table table = lineitems(12);
        AggregateNode single = new AggregateNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, false, ESTIMATE), AggregateMode.SINGLE,
                new int[]{0, 1}, q1Calls(), ESTIMATE);
        // ids by (flag, status): A/F 0,6 | N/O 1,7 | R/F 2,8 | A/O 3,9 | N/F 4,10 | R/O 5,11; quantity = (id*25+1)/100 as scaled longs, NULL for 0 and 7.
        List<List<Object>> expected = List.of(
                row("A", "F", 151L, 1510000L, 2L, 1L, 0L, "A"),
                row("N", "O", 26L, 260000L, 2L, 1L, 1L, "N"),
                row("R", "F", 252L, 1260000L, 2L, 2L, 2L, "R"),
                row("A", "O", 302L, 1510000L, 2L, 2L, 3L, "A"),
                row("N", "F", 352L, 1760000L, 2L, 2L, 4L, "N"),
                row("R", "O", 402L, 2010000L, 2L, 2L, 5L, "R"));
        assertEquals(TestExecution.sorted(expected), TestExecution.sorted(TestExecution.run(single, context(new Settings()))));
    }

    @Test
    void partialAndFinalAcrossWorkersEqualsSingle() {
        Table table = lineitems(3000);
        List<AggregateCall> calls = q1Calls();
        AggregateNode single = new AggregateNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, false, ESTIMATE), AggregateMode.SINGLE,
                new int[]{0, 1}, calls, ESTIMATE);
        List<List<Object>> expected = TestExecution.sorted(TestExecution.run(single, context(new Settings())));
        assertEquals(6, expected.size());
        for (int workers : new int[]{0, 1, 2, 4}) {
            Settings settings = new Settings();
            settings.set("parallel_scan_chunk_pages", "1");
            assertEquals(expected, TestExecution.sorted(TestExecution.run(parallelAggregate(table, new int[]{0, 1}, calls, workers), context(settings))));
            // Also through the serialized key path: group by a bigint expression-free column plus a flag.
            assertEquals(TestExecution.sorted(TestExecution.run(new AggregateNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, false, ESTIMATE),
                            AggregateMode.SINGLE, new int[]{3, 0}, calls, ESTIMATE), context(new Settings()))),
                    TestExecution.sorted(TestExecution.run(parallelAggregate(table, new int[]{3, 0}, calls, workers), context(settings))));
        }
    }

    @Test
    void emptyInputWithoutGroupKeysGivesOneRowAndWithKeysNone() {
        Table empty = lineitems(0);
        AggregateNode noKeys = new AggregateNode(new SeqScanNode(empty, new int[]{0, 1, 2, 3}, false, ESTIMATE), AggregateMode.SINGLE,
                new int[0], q1Calls(), ESTIMATE);
        assertEquals(List.of(row(null, null, 0L, 0L, null, null)), TestExecution.run(noKeys, context(new Settings())));
        assertEquals(List.of(row(null, null, 0L, 0L, null, null)), TestExecution.run(parallelAggregate(empty, new int[0], q1Calls(), 2), context(new Settings())));
        AggregateNode withKeys = new AggregateNode(new SeqScanNode(empty, new int[]{0, 1, 2, 3}, false, ESTIMATE), AggregateMode.SINGLE,
                new int[]{0}, q1Calls(), ESTIMATE);
        assertEquals(List.of(), TestExecution.run(withKeys, context(new Settings())));
    }

    @Test
    void distinctAggregatesCountEachValueOncePerGroup() {
        Table table = lineitems(30);
        List<AggregateCall> calls = List.of(
                call(AggregateFunction.COUNT, 1, true, FLAG, DataType.BIGINT, "count(DISTINCT l_linestatus)"),
                call(AggregateFunction.COUNT, 0, true, FLAG, DataType.BIGINT, "count(DISTINCT l_returnflag)"),
                call(AggregateFunction.SUM, 3, true, DataType.BIGINT, DataType.decimal(18, 0), "sum(DISTINCT l_id % ...)"));
        AggregateNode node = new AggregateNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, false, ESTIMATE), AggregateMode.SINGLE,
                new int[]{1}, calls, ESTIMATE);
        // status F: even ids 0..28 (sum 210), flags A,N,R all present; status O: odd ids 1..29 (sum 225).
        assertEquals(List.of(row("F", 1L, 3L, 210L), row("O", 1L, 3L, 225L)), TestExecution.sorted(TestExecution.run(node, context(new Settings()))));
    }

    @Test
    void sumsAccumulateBeyondLongAndReportOverflowOnlyWhenTheResultDoesNot() {
        List<List<Object>> rows = List.of(row(Long.MAX_VALUE), row(Long.MAX_VALUE), row(-Long.MAX_VALUE), row(-Long.MAX_VALUE + 10));
        Table table = TestExecution.table("big", List.of("v"), List.of(DataType.BIGINT), 1, rows);
        SeqScanNode scan = new SeqScanNode(table, new int[]{0}, false, ESTIMATE);
        AggregateNode sum = new AggregateNode(scan, AggregateMode.SINGLE, new int[0],
                List.of(call(AggregateFunction.SUM, 0, false, DataType.BIGINT, DataType.BIGINT, "sum(v)")), ESTIMATE);
        // MAX + MAX overflows a long on the way; the total (10) does not.
        assertEquals(List.of(row(10L)), TestExecution.run(sum, context(new Settings())));

        Table overflowing = TestExecution.table("big2", List.of("v"), List.of(DataType.BIGINT), 1, List.of(row(Long.MAX_VALUE), row(1L)));
        AggregateNode overflow = new AggregateNode(new SeqScanNode(overflowing, new int[]{0}, false, ESTIMATE), AggregateMode.SINGLE, new int[0],
                List.of(call(AggregateFunction.SUM, 0, false, DataType.BIGINT, DataType.BIGINT, "sum(v)")), ESTIMATE);
        ParallaxException bigint = assertThrows(ParallaxException.class, () -> TestExecution.run(overflow, context(new Settings())));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, bigint.state());
        assertEquals("bigint out of range", bigint.getMessage());

        AggregateNode numeric = new AggregateNode(new SeqScanNode(overflowing, new int[]{0}, false, ESTIMATE), AggregateMode.SINGLE, new int[0],
                List.of(call(AggregateFunction.SUM, 0, false, DataType.BIGINT, DataType.decimal(18, 0), "sum(v)")), ESTIMATE);
        ParallaxException field = assertThrows(ParallaxException.class, () -> TestExecution.run(numeric, context(new Settings())));
        assertEquals("22003", field.state().code());
        assertEquals("numeric field overflow", field.getMessage());
    }

    @Test
    void averagesRoundHalfAwayFromZeroAtTheResultScale() {
        DataType type = DataType.decimal(10, 2);
        Table table = TestExecution.table("a", List.of("g", "v"), List.of(DataType.INTEGER, type), 2,
                List.of(row(1L, 100L), row(1L, 101L), row(1L, 101L), row(2L, -100L), row(2L, -101L), row(2L, -101L), row(3L, 1L), row(3L, 2L)));
        AggregateNode node = new AggregateNode(new SeqScanNode(table, new int[]{0, 1}, false, ESTIMATE), AggregateMode.SINGLE, new int[]{0},
                List.of(call(AggregateFunction.AVG, 1, false, type, DataType.decimal(18, 3), "avg(v)"),
                        call(AggregateFunction.AVG, 0, false, DataType.INTEGER, DataType.decimal(18, 1), "avg(g)")), ESTIMATE);
        // 3.02/3 = 1.00666.. -> 1.007; -1.007; (0.01+0.02)/2 = 0.015 -> 0.015; avg(g) exact.
        assertEquals(List.of(row(1L, 1007L, 10L), row(2L, -1007L, 20L), row(3L, 15L, 30L)),
                TestExecution.sorted(TestExecution.run(node, context(new Settings()))));
    }

    @Test
    void stateTypesDescribeThePartialLayout() {
        assertEquals(List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT), AggregateStates.stateTypes(AggregateFunction.AVG, MONEY, DataType.decimal(18, 6)));
        assertEquals(List.of(DataType.BIGINT), AggregateStates.stateTypes(AggregateFunction.COUNT_STAR, null, DataType.BIGINT));
        assertEquals(List.of(DataType.DOUBLE, DataType.BIGINT), AggregateStates.stateTypes(AggregateFunction.SUM, DataType.REAL, DataType.REAL));
        assertEquals(List.of(FLAG), AggregateStates.stateTypes(AggregateFunction.MIN, FLAG, FLAG));
        assertTrue(AggregateStates.stateTypes(AggregateFunction.BOOL_OR, DataType.BOOLEAN, DataType.BOOLEAN).contains(DataType.BOOLEAN));
    }
}
