package dev.parallax.engine.operator.append;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.explain.ExplainLabels;
import dev.parallax.engine.explain.ExplainOptions;
import dev.parallax.engine.explain.ExplainPrinter;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AppendOperatorTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 4);
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.TEXT);

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    private static Table table(String name, long first, int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            rows.add(row(id, id % 3 == 0 ? null : name + id));
        }
        return TestExecution.table(name, List.of("id", "name"), TYPES, 4, rows);
    }

    private static ValuesNode values(Object id, String name) {
        List<Expr> row = List.of(new Literal(id, DataType.BIGINT), new Literal(name.getBytes(StandardCharsets.UTF_8), DataType.TEXT));
        return new ValuesNode(List.of(row), TYPES, PlanEstimate.UNKNOWN);
    }

    @Test
    void returnsEveryInputsRowsInputAfterInputIncludingEmptyInputs() {
        Table first = table("a", 0, 5);
        Table empty = table("e", 0, 0);
        AppendNode append = new AppendNode(List.of(
                new SeqScanNode(first, new int[]{0, 1}, false, PlanEstimate.UNKNOWN),
                new SeqScanNode(empty, new int[]{0, 1}, false, PlanEstimate.UNKNOWN),
                values(null, "v"),
                new SeqScanNode(first, new int[]{0, 1}, false, PlanEstimate.UNKNOWN)), PlanEstimate.UNKNOWN);
        List<List<Object>> expected = new ArrayList<>();
        List<List<Object>> once = List.of(row(0L, null), row(1L, "a1"), row(2L, "a2"), row(3L, null), row(4L, "a4"));
        expected.addAll(once);
        expected.add(row(null, "v"));
        expected.addAll(once);
        assertEquals(expected, TestExecution.run(append, TestExecution.context(WORKERS, new Settings())));
    }

    @Test
    void runsAGatherBelowTheAppendWithItsWorkers() {
        Table large = table("big", 0, 1000);
        Settings settings = new Settings();
        settings.set("parallel_scan_chunk_pages", "1");
        PlanNode gathered = new GatherNode(new SeqScanNode(large, new int[]{0, 1}, true, PlanEstimate.UNKNOWN), 2, false,
                PlanEstimate.UNKNOWN);
        AppendNode append = new AppendNode(List.of(gathered, values(7L, "seven")), PlanEstimate.UNKNOWN);
        List<List<Object>> rows = TestExecution.run(append, TestExecution.context(WORKERS, settings));
        assertEquals(1001, rows.size());
        assertEquals(row(7L, "seven"), rows.getLast(), "the second input runs after the Gather is exhausted");
        List<List<Object>> expected = new ArrayList<>();
        for (long id = 0; id < 1000; id++) {
            expected.add(row(id, id % 3 == 0 ? null : "big" + id));
        }
        expected.add(row(7L, "seven"));
        assertEquals(TestExecution.sorted(expected), TestExecution.sorted(rows));
    }

    @Test
    void closesEachInputWhenExhaustedAndTheRestOnClose() {
        List<String> events = new ArrayList<>();
        Batch batch = TestExecution.batch(TYPES, List.of(row(1L, "x")));
        AppendOperator append = new AppendOperator(List.of(
                new ScriptedOperator("first", 1, batch, events),
                new ScriptedOperator("second", 0, batch, events),
                new ScriptedOperator("third", 2, batch, events),
                new ScriptedOperator("fourth", 1, batch, events)));
        assertEquals(batch, append.next());
        assertEquals(batch, append.next());
        assertEquals(List.of("first next", "first next", "first closed", "second next", "second closed", "third next"), events);
        events.clear();
        append.close();
        assertEquals(List.of("third closed", "fourth closed"), events);
        events.clear();
        append.close();
        assertEquals(List.of(), events, "a second close closes nothing again");
    }

    @Test
    void exhaustedAppendHasClosedEveryInputExactlyOnce() {
        List<String> events = new ArrayList<>();
        Batch batch = TestExecution.batch(TYPES, List.of(row(1L, "x")));
        AppendOperator append = new AppendOperator(List.of(new ScriptedOperator("only", 1, batch, events)));
        assertEquals(batch, append.next());
        assertNull(append.next());
        assertNull(append.next());
        append.close();
        assertEquals(List.of("only next", "only next", "only closed"), events);
    }

    @Test
    void rejectsInputsOfDifferentTypes() {
        ValuesNode integers = new ValuesNode(List.of(List.of(new Literal(1L, DataType.BIGINT))), List.of(DataType.BIGINT),
                PlanEstimate.UNKNOWN);
        ValuesNode texts = new ValuesNode(List.of(List.of(new Literal("1".getBytes(StandardCharsets.UTF_8), DataType.TEXT))), List.of(DataType.TEXT),
                PlanEstimate.UNKNOWN);
        assertThrows(IllegalArgumentException.class, () -> new AppendNode(List.of(integers, texts), PlanEstimate.UNKNOWN));
        assertThrows(IllegalArgumentException.class, () -> new AppendNode(List.of(), PlanEstimate.UNKNOWN));
    }

    @Test
    void explainPrintsAppendWithItsChildrenLikePostgres() {
        Table first = table("a", 0, 5);
        Table second = table("b", 0, 5);
        AppendNode append = new AppendNode(List.of(
                new SeqScanNode(first, new int[]{0, 1}, false, new PlanEstimate(0, 1.05, 5, 12)),
                new SeqScanNode(second, new int[]{0, 1}, false, new PlanEstimate(0, 1.05, 5, 12))),
                new PlanEstimate(0, 2.25, 10, 12));
        assertEquals(List.of(
                "Append  (cost=0.00..2.25 rows=10 width=12)",
                "  ->  Seq Scan on a  (cost=0.00..1.05 rows=5 width=12)",
                "  ->  Seq Scan on b  (cost=0.00..1.05 rows=5 width=12)"),
                ExplainPrinter.print(append, ExplainOptions.DEFAULT, null, ExplainLabels.NONE));
        assertEquals(List.of(
                "Append",
                "  ->  Seq Scan on public.a",
                "        Output: a.id, a.name",
                "  ->  Seq Scan on public.b",
                "        Output: b.id, b.name"),
                ExplainPrinter.print(append, new ExplainOptions(false, true, false, true), null, ExplainLabels.NONE).stream()
                        .filter(line -> !line.startsWith("  Output:")).toList());
    }

    /** Returns {@code batches} copies of one batch, recording calls. */
    private static final class ScriptedOperator implements Operator {
        private final String name;
        private final Batch batch;
        private final List<String> events;
        private int remaining;

        ScriptedOperator(String name, int batches, Batch batch, List<String> events) {
            this.name = name;
            this.remaining = batches;
            this.batch = batch;
            this.events = events;
        }

        @Override
        public Batch next() {
            events.add(name + " next");
            if (remaining == 0) {
                return null;
            }
            remaining--;
            return batch;
        }

        @Override
        public void close() {
            events.add(name + " closed");
        }
    }
}
