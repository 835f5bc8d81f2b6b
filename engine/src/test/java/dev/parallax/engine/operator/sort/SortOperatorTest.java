package dev.parallax.engine.operator.sort;

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
import dev.parallax.engine.operator.InMemoryTableStorage;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SortOperatorTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;
    private static final List<String> NAMES = List.of("id", "k", "name", "score");
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.BIGINT, DataType.TEXT, DataType.DOUBLE);

    @TempDir
    Path temporaryFiles;
    private String savedTemporaryDirectory;

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    /** Sorts spill into {@link #temporaryFiles}, so the tests can see that nothing is left there. */
    @BeforeEach
    void redirectTemporaryFiles() {
        savedTemporaryDirectory = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", temporaryFiles.toString());
    }

    @AfterEach
    void restoreTemporaryFiles() {
        System.setProperty("java.io.tmpdir", savedTemporaryDirectory);
    }

    /** (id, k with NULLs and many ties, name with NULLs, shared prefixes and ties, score with NULLs, NaN and -0). */
    static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>();
        double[] scores = {1.5, -2.25, Double.NaN, -0.0, 0.0, 1e300, -1e300};
        for (long id = 0; id < count; id++) {
            long mixed = (id * 7919) % 1000;
            Long key = id % 11 == 3 ? null : (mixed % 37) - 18;
            String name = id % 13 == 5 ? null : id % 4 == 0 ? "" : "a shared prefix longer than eight bytes " + (mixed % 50);
            Double score = id % 17 == 2 ? null : scores[(int) (mixed % scores.length)];
            rows.add(row(id, key, name, score));
        }
        return rows;
    }

    static Table table(int count, int rowsPerPage) {
        return TestExecution.table("t", NAMES, TYPES, rowsPerPage, rows(count));
    }

    private static ExecutionContext context(Settings settings) {
        return TestExecution.context(WORKERS, settings);
    }

    private static SeqScanNode scan(Table table) {
        return new SeqScanNode(table, new int[]{0, 1, 2, 3}, false, ESTIMATE);
    }

    @Test
    void ordersEveryTypeWithNullsInEveryDirection() {
        Table table = table(3000, 100);
        List<List<Object>> input = rows(3000);
        List<List<SortKey>> keyLists = List.of(
                List.of(new SortKey(1, false, false)),
                List.of(new SortKey(1, true, true)),
                List.of(new SortKey(1, false, true), new SortKey(2, true, false)),
                List.of(new SortKey(2, false, false), new SortKey(3, true, true), new SortKey(0, false, false)),
                List.of(new SortKey(3, false, false), new SortKey(1, true, false)),
                List.of(new SortKey(3, true, true), new SortKey(2, false, true), new SortKey(1, false, false)));
        for (List<SortKey> keys : keyLists) {
            List<List<Object>> sorted = TestExecution.run(new SortNode(scan(table), keys, -1, ESTIMATE), context(new Settings()));
            // The Sorter is stable and the scan returns rows in table order: even ties match the reference exactly.
            assertEquals(ReferenceOrder.sort(input, keys), sorted, keys.toString());
        }
    }

    @Test
    void limitKeepsTheFirstRowsAndReportsTopNHeapsort() {
        Table table = table(2000, 64);
        List<SortKey> keys = List.of(new SortKey(2, true, true), new SortKey(0, false, false));
        SortNode sort = new SortNode(scan(table), keys, 25, ESTIMATE);
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(sort);
        List<List<Object>> sorted = TestExecution.run(sort, TestExecution.analyzeContext(WORKERS, new Settings()), statistics);
        assertEquals(ReferenceOrder.sort(rows(2000), keys).subList(0, 25), sorted);
        List<String> lines = ExplainPrinter.print(sort, new ExplainOptions(true, false, false, false), statistics, ExplainLabels.NONE);
        assertEquals("Sort (actual rows=25 loops=1)", lines.get(0));
        assertEquals("  Sort Key: name DESC, id", lines.get(1));
        assertTrue(lines.get(2).matches("  Sort Method: top-N heapsort  Memory: \\d+kB"), lines.get(2));
        assertEquals(List.of(), TestExecution.run(new SortNode(scan(table), keys, 0, ESTIMATE), context(new Settings())));
    }

    @Test
    void spillsPastWorkMemWithTheSameAnswerAndRemovesItsFiles() throws IOException {
        Table table = table(20_000, 500);
        List<SortKey> keys = List.of(new SortKey(2, false, false), new SortKey(1, true, true), new SortKey(0, false, false));
        Settings settings = new Settings();
        settings.set("work_mem", "64kB");
        SortNode sort = new SortNode(scan(table), keys, -1, ESTIMATE);
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(sort);
        List<List<Object>> sorted = TestExecution.run(sort, TestExecution.analyzeContext(WORKERS, settings), statistics);
        assertEquals(ReferenceOrder.sort(rows(20_000), keys), sorted);
        List<String> lines = ExplainPrinter.print(sort, new ExplainOptions(true, false, false, false), statistics, ExplainLabels.NONE);
        assertTrue(lines.get(2).matches("  Sort Method: external merge  Disk: \\d+kB"), lines.get(2));
        assertEquals(List.of(), leftovers());
        List<List<Object>> inMemory = TestExecution.run(sort, context(new Settings()));
        assertEquals(sorted, inMemory);
    }

    @Test
    void inMemorySortReportsQuicksort() {
        Table table = table(500, 50);
        SortNode sort = new SortNode(scan(table), List.of(new SortKey(3, false, false)), -1, ESTIMATE);
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(sort);
        TestExecution.run(sort, TestExecution.analyzeContext(WORKERS, new Settings()), statistics);
        List<String> lines = ExplainPrinter.print(sort, new ExplainOptions(true, false, false, false), statistics, ExplainLabels.NONE);
        assertEquals(List.of("Sort (actual rows=500 loops=1)", "  Sort Key: score", lines.get(2), "  ->  Seq Scan on t (actual rows=500 loops=1)"), lines);
        assertTrue(lines.get(2).matches("  Sort Method: quicksort  Memory: \\d+kB"), lines.get(2));
    }

    @Test
    void failureAfterSpillingLeavesNoTemporaryFiles() throws IOException {
        Table table = table(20_000, 500);
        ((InMemoryTableStorage) table.storage()).failOnPage(35);
        Settings settings = new Settings();
        settings.set("work_mem", "64kB");
        SortNode sort = new SortNode(scan(table), List.of(new SortKey(2, false, false)), -1, ESTIMATE);
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TestExecution.run(sort, context(settings)));
        assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
        assertEquals(List.of(), leftovers());
    }

    @Test
    void cancellationBetweenBatchesStopsTheSortAndClosingEarlyRemovesFiles() throws IOException {
        Table table = table(20_000, 500);
        Settings settings = new Settings();
        settings.set("work_mem", "64kB");
        PlanNode sort = new SortNode(scan(table), List.of(new SortKey(2, false, false)), -1, ESTIMATE);
        ExecutionContext context = context(settings);
        try (Operator operator = Executor.open(sort, context)) {
            assertEquals(Batch.DEFAULT_CAPACITY, operator.next().selectedCount());
            assertTrue(leftovers().size() == 1, "a spilled sort keeps its runs while it is read");
            context.cancel("canceling statement due to user request");
            ParallaxException cancelled = assertThrows(ParallaxException.class, operator::next);
            assertEquals(SqlState.QUERY_CANCELED, cancelled.state());
        }
        assertEquals(List.of(), leftovers());
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(temporaryFiles)) {
            return files.toList();
        }
    }
}
