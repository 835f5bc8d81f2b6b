package dev.parallax.engine.explain;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.operator.aggregate.AggregateStates;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExplainPrinterTest {
    private static Table table() {
        List<List<Object>> rows = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            rows.add(row(id, id % 2 == 0 ? "A" : "B"));
        }
        return TestExecution.table("t", List.of("id", "flag"), List.of(DataType.BIGINT, DataType.charType(1)), 10, rows);
    }

    private static PlanNode parallelCount(Table table) {
        AggregateCall count = new AggregateCall(AggregateFunction.COUNT_STAR, -1, false, null, DataType.BIGINT,
                AggregateStates.stateTypes(AggregateFunction.COUNT_STAR, null, DataType.BIGINT), "count(*)");
        SeqScanNode scan = new SeqScanNode(table, new int[]{1}, true, new PlanEstimate(0, 1.42, 42, 2));
        AggregateNode partial = new AggregateNode(scan, AggregateMode.PARTIAL, new int[]{0}, List.of(count), new PlanEstimate(1.63, 1.65, 2, 10));
        GatherNode gather = new GatherNode(partial, 2, false, new PlanEstimate(1001.63, 1002.05, 4, 10));
        AggregateNode finalize = new AggregateNode(gather, AggregateMode.FINAL, new int[]{0}, List.of(count), new PlanEstimate(1002.05, 1002.1, 2, 10));
        return new SortNode(finalize, List.of(new SortKey(1, true, false)), -1, new PlanEstimate(1002.2, 1002.3, 2, 10));
    }

    @Test
    void printsParallelPlanLikePostgres() {
        assertEquals(List.of(
                "Sort  (cost=1002.20..1002.30 rows=2 width=10)",
                "  Sort Key: count(*) DESC NULLS LAST",
                "  ->  Finalize HashAggregate  (cost=1002.05..1002.10 rows=2 width=10)",
                "        Group Key: flag",
                "        ->  Gather  (cost=1001.63..1002.05 rows=4 width=10)",
                "              Workers Planned: 2",
                "              ->  Partial HashAggregate  (cost=1.63..1.65 rows=2 width=10)",
                "                    Group Key: flag",
                "                    ->  Parallel Seq Scan on t  (cost=0.00..1.42 rows=42 width=2)"),
                ExplainPrinter.print(parallelCount(table()), ExplainOptions.DEFAULT, null, ExplainLabels.NONE));
    }

    @Test
    void printsFilterAsPropertyOfTheScanAndVerboseOutputs() {
        Table table = table();
        SeqScanNode scan = new SeqScanNode(table, new int[]{0, 1}, false, new PlanEstimate(0, 2, 100, 10));
        FilterNode filter = new FilterNode(scan, new Call(Function.GREATER_THAN, DataType.BOOLEAN,
                new ColumnRef(0, DataType.BIGINT), Literal.ofLong(90, DataType.BIGINT)), new PlanEstimate(0, 2.25, 9, 10));
        assertEquals(List.of(
                "Seq Scan on t  (cost=0.00..2.25 rows=9 width=10)",
                "  Filter: (id > 90)"), ExplainPrinter.print(filter, ExplainOptions.DEFAULT, null, ExplainLabels.NONE));
        assertEquals(List.of(
                "Seq Scan on public.t",
                "  Output: t.id, t.flag",
                "  Filter: (t.id > 90)"), ExplainPrinter.print(filter, new ExplainOptions(false, true, false, true), null, ExplainLabels.NONE));
        assertEquals(List.of(
                "Seq Scan on t",
                "  Filter: (id > 90::bigint)"), ExplainPrinter.print(filter, new ExplainOptions(false, false, false, true), null,
                new ExplainLabels().withCondition(filter, "(id > 90::bigint)")));
    }

    @Test
    void analyzeReportsRowsPerLoopLoopsPerParticipantAndWorkers() {
        try (WorkerPool workers = new WorkerPool(2, 8)) {
            PlanNode plan = parallelCount(table());
            Settings settings = new Settings();
            settings.set("parallel_scan_chunk_pages", "1");
            ExecutionStatistics statistics = ExecutionStatistics.forPlan(plan);
            List<List<Object>> rows = TestExecution.run(plan, TestExecution.analyzeContext(workers, settings), statistics);
            assertEquals(List.of(row("A", 50L), row("B", 50L)), TestExecution.sorted(rows));
            List<String> lines = ExplainPrinter.print(plan, new ExplainOptions(true, true, false, false), statistics, ExplainLabels.NONE);
            assertEquals("Sort (actual rows=2 loops=1)", lines.get(0));
            assertEquals("  Output: t.flag, count(*)", lines.get(1));
            assertEquals("  Sort Key: count(*) DESC NULLS LAST", lines.get(2));
            assertTrue(lines.get(3).matches("  Sort Method: quicksort  Memory: \\d+kB"), lines.get(3));
            // Each participant that read pages emits its own partial groups, so the Gather passes 2 to 6 rows.
            // The Finalize HashAggregate's hash table line (PostgreSQL 13+), then the Gather below it.
            assertTrue(lines.get(7).matches(" {8}Batches: 1  Memory Usage: \\d+kB"), lines.get(7));
            assertTrue(lines.get(8).matches(" {8}->  Gather \\(actual rows=[246] loops=1\\)"), lines.get(8));
            assertEquals("              Workers Planned: 2", lines.get(10));
            assertEquals("              Workers Launched: 2", lines.get(11));
            assertTrue(lines.stream().anyMatch(line -> line.matches(" {20}Batches: 1  Memory Usage: \\d+kB")), String.join("\n", lines));
            String scanLine = lines.stream().filter(line -> line.contains("Parallel Seq Scan")).findFirst().orElseThrow();
            assertEquals("                    ->  Parallel Seq Scan on public.t (actual rows=33 loops=3)", scanLine);
            assertTrue(lines.stream().anyMatch(line -> line.matches(" {26}Worker 0:  actual rows=\\d+ loops=1")), String.join("\n", lines));
            List<String> timed = ExplainPrinter.print(plan, new ExplainOptions(true, false, true, true), statistics, ExplainLabels.NONE);
            assertTrue(timed.get(0).matches("Sort  \\(cost=1002\\.20\\.\\.1002\\.30 rows=2 width=10\\) \\(actual time=\\d+\\.\\d{3}\\.\\.\\d+\\.\\d{3} rows=2 loops=1\\)"), timed.get(0));
            assertEquals("Execution Time: 1.235 ms", ExplainPrinter.timingLine("Execution Time", 1.2345));
        }
    }
}
