package dev.parallax.engine.operator.gather;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Executor;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.explain.ExplainLabels;
import dev.parallax.engine.explain.ExplainOptions;
import dev.parallax.engine.explain.ExplainPrinter;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.operator.InMemoryTableStorage;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.operator.sort.ReferenceOrder;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
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

class GatherMergeOperatorTest {
    private static final WorkerPool WORKERS = new WorkerPool(4, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.BIGINT, DataType.TEXT, DataType.DOUBLE);

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    /** (id, k with NULLs and ties, name with NULLs and ties, score with NULLs, NaN and -0). */
    private static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>();
        double[] scores = {1.5, -2.25, Double.NaN, -0.0, 0.0, 1e300};
        for (long id = 0; id < count; id++) {
            long mixed = (id * 7919) % 1000;
            rows.add(row(id, id % 9 == 4 ? null : mixed % 23 - 11,
                    id % 10 == 7 ? null : "name with a long shared prefix " + mixed % 31,
                    id % 8 == 1 ? null : scores[(int) (mixed % scores.length)]));
        }
        return rows;
    }

    /** Tiny pages, so every participant claims many of them in turn. */
    private static Table table(int count) {
        return TestExecution.table("t", List.of("id", "k", "name", "score"), TYPES, 7, rows(count));
    }

    private static Settings settings(boolean leaderParticipation) {
        Settings settings = new Settings();
        settings.set("parallel_scan_chunk_pages", "1");
        settings.set("parallel_leader_participation", leaderParticipation ? "on" : "off");
        return settings;
    }

    private static PlanNode gatherMerge(Table table, List<SortKey> keys, long limit, int workers) {
        SortNode sort = new SortNode(new SeqScanNode(table, new int[]{0, 1, 2, 3}, true, ESTIMATE), keys, limit, ESTIMATE);
        return new GatherMergeNode(sort, workers, keys, ESTIMATE);
    }

    @Test
    void mergesToTheSerialOrderForAnyWorkerCountAndLeaderParticipation() {
        Table table = table(5000);
        List<List<Object>> input = rows(5000);
        List<List<SortKey>> keyLists = List.of(
                List.of(new SortKey(1, false, false)),
                List.of(new SortKey(2, true, true), new SortKey(1, false, true)),
                List.of(new SortKey(3, false, true), new SortKey(2, true, false)),
                List.of(new SortKey(1, true, false), new SortKey(3, false, false), new SortKey(0, true, true)));
        for (List<SortKey> keys : keyLists) {
            List<List<Object>> serial = ReferenceOrder.sort(input, keys);
            for (int workers = 0; workers <= 2; workers++) {
                for (boolean leader : new boolean[]{true, false}) {
                    String where = keys + " workers=" + workers + " leader=" + leader;
                    List<List<Object>> merged = TestExecution.run(gatherMerge(table, keys, -1, workers), TestExecution.context(WORKERS, settings(leader)));
                    // Rows with equal keys may come from different participants in any order; keys and contents may not.
                    assertEquals(ReferenceOrder.keyColumns(serial, keys), ReferenceOrder.keyColumns(merged, keys), where);
                    assertEquals(TestExecution.sorted(serial), TestExecution.sorted(merged), where);
                }
            }
        }
        // With a unique last key the order is total: the merge equals the serial sort row for row.
        List<SortKey> total = List.of(new SortKey(2, false, true), new SortKey(0, true, false));
        assertEquals(ReferenceOrder.sort(input, total), TestExecution.run(gatherMerge(table, total, -1, 2), TestExecution.context(WORKERS, settings(true))));
        assertEquals(8, WORKERS.idleWorkers());
    }

    @Test
    void limitAboveTopNSortsInEveryParticipant() {
        Table table = table(3000);
        List<SortKey> keys = List.of(new SortKey(3, true, true), new SortKey(0, false, false));
        for (int workers = 0; workers <= 2; workers++) {
            PlanNode plan = new LimitNode(gatherMerge(table, keys, 40, workers), Literal.ofLong(30, DataType.BIGINT),
                    Literal.ofLong(10, DataType.BIGINT), ESTIMATE);
            assertEquals(ReferenceOrder.sort(rows(3000), keys).subList(30, 40), TestExecution.run(plan, TestExecution.context(WORKERS, settings(true))));
        }
    }

    @Test
    void spillingParticipantsMergeToTheSameOrder() {
        Table table = table(20_000);
        List<SortKey> keys = List.of(new SortKey(2, false, false), new SortKey(0, false, false));
        Settings settings = settings(true);
        settings.set("work_mem", "64kB");
        PlanNode plan = gatherMerge(table, keys, -1, 2);
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(plan);
        assertEquals(ReferenceOrder.sort(rows(20_000), keys), TestExecution.run(plan, TestExecution.analyzeContext(WORKERS, settings), statistics));
        List<String> lines = ExplainPrinter.print(plan, new ExplainOptions(true, false, false, false), statistics, ExplainLabels.NONE);
        assertEquals("Gather Merge (actual rows=20000 loops=1)", lines.get(0));
        assertEquals("  Workers Planned: 2", lines.get(1));
        assertEquals("  Workers Launched: 2", lines.get(2));
        assertEquals("  ->  Sort (actual rows=6667 loops=3)", lines.get(3));
        assertEquals("        Sort Key: name, id", lines.get(4));
        // How many rows each participant claims depends on scheduling (a loaded machine may leave the
        // leader a few pages only), so a participant may sort in memory; the one with the most rows
        // (at least a third: ~6,700 rows, far past 64kB) must have spilled.
        String method = "(external merge  Disk|quicksort  Memory): \\d+kB";
        assertTrue(lines.get(5).matches(" {8}Sort Method: " + method), lines.get(5));
        assertTrue(lines.get(6).matches(" {8}Worker 0:  Sort Method: " + method), lines.get(6));
        assertTrue(lines.get(7).matches(" {8}Worker 1:  Sort Method: " + method), lines.get(7));
        assertTrue(lines.subList(5, 8).stream().anyMatch(line -> line.contains("external merge")), String.join("\n", lines));
        assertEquals("        ->  Parallel Seq Scan on t (actual rows=6667 loops=3)", lines.get(8));
    }

    @Test
    void verboseExplainPutsEachWorkersSortMethodInItsBlock() {
        Table table = table(20_000);
        PlanNode plan = gatherMerge(table, List.of(new SortKey(1, false, false)), 5, 2);
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(plan);
        TestExecution.run(plan, TestExecution.analyzeContext(WORKERS, settings(false)), statistics);
        List<String> lines = ExplainPrinter.print(plan, new ExplainOptions(true, true, false, false), statistics, ExplainLabels.NONE);
        String text = String.join("\n", lines);
        assertTrue(text.matches("(?s)Gather Merge \\(actual rows=\\d+ loops=1\\)\n"
                + "  Output: t\\.id, t\\.k, t\\.name, t\\.score\n"
                + "  Workers Planned: 2\n"
                + "  Workers Launched: 2\n"
                + "  ->  Sort \\(actual rows=\\d+ loops=2\\)\n"
                + "        Output: t\\.id, t\\.k, t\\.name, t\\.score\n"
                + "        Sort Key: t\\.k\n"
                + "        Worker 0:  actual rows=\\d loops=1\n"
                + "          Sort Method: top-N heapsort  Memory: \\d+kB\n"
                + "        Worker 1:  actual rows=\\d loops=1\n"
                + "          Sort Method: top-N heapsort  Memory: \\d+kB\n"
                + "        ->  Parallel Seq Scan on public\\.t.*"), text);
    }

    @Test
    void workerFailureReachesTheLeaderAndWorkersAreReleased() {
        Table table = table(3000);
        ((InMemoryTableStorage) table.storage()).failOnPage(301);
        for (boolean leader : new boolean[]{true, false}) {
            PlanNode plan = gatherMerge(table, List.of(new SortKey(1, false, false)), -1, 2);
            ParallaxException failure = assertThrows(ParallaxException.class,
                    () -> TestExecution.run(plan, TestExecution.context(WORKERS, settings(leader))));
            assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
            assertEquals(8, WORKERS.idleWorkers());
        }
    }

    @Test
    void cancellationStopsTheMergeAndReleasesWorkers() {
        Table table = table(20_000);
        ExecutionContext context = TestExecution.context(WORKERS, settings(true));
        try (Operator operator = Executor.open(gatherMerge(table, List.of(new SortKey(0, true, false)), -1, 2), context)) {
            assertEquals(19_999L, ((dev.parallax.engine.vector.LongVector) operator.next().column(0)).values()[0]);
            context.cancel("canceling statement due to user request");
            ParallaxException cancelled = assertThrows(ParallaxException.class, operator::next);
            assertEquals(SqlState.QUERY_CANCELED, cancelled.state());
        }
        assertEquals(8, WORKERS.idleWorkers());
    }
}
