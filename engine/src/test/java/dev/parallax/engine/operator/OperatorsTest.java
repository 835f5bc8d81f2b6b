package dev.parallax.engine.operator;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.operator.filter.FilterOperator;
import dev.parallax.engine.operator.project.ProjectOperator;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OperatorsTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    private static ExecutionContext context(Object... parameters) {
        return TestExecution.context(WORKERS, new Settings(), parameters);
    }

    private static Table numbers(int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (long value = 1; value <= count; value++) {
            rows.add(row(value, value % 3 == 0 ? null : "v" + value));
        }
        return TestExecution.table("numbers", List.of("n", "s"), List.of(DataType.BIGINT, DataType.TEXT), 7, rows);
    }

    private static Literal bigint(long value) {
        return Literal.ofLong(value, DataType.BIGINT);
    }

    @Test
    void serialScanReadsEveryRowOnceInPageOrder() {
        List<List<Object>> rows = TestExecution.run(new SeqScanNode(numbers(20), new int[]{1, 0}, false, ESTIMATE), context());
        assertEquals(20, rows.size());
        assertEquals(row("v1", 1L), rows.get(0));
        assertEquals(row(null, 3L), rows.get(2));
        assertEquals(row("v20", 20L), rows.get(19));
    }

    @Test
    void limitSkipsOffsetAndStopsAtLimitAcrossBatches() {
        SeqScanNode scan = new SeqScanNode(numbers(30), new int[]{0}, false, ESTIMATE);
        List<List<Object>> rows = TestExecution.run(new LimitNode(scan, bigint(5), new Parameter(0, DataType.BIGINT), ESTIMATE), context(10L));
        List<List<Object>> expected = new ArrayList<>();
        for (long value = 6; value <= 15; value++) {
            expected.add(row(value));
        }
        assertEquals(expected, rows);
        assertEquals(30, TestExecution.run(new LimitNode(scan, null, Literal.nullOf(DataType.BIGINT), ESTIMATE), context()).size());
    }

    @Test
    void negativeLimitAndOffsetArePostgresErrors() {
        SeqScanNode scan = new SeqScanNode(numbers(3), new int[]{0}, false, ESTIMATE);
        ParallaxException limit = assertThrows(ParallaxException.class,
                () -> TestExecution.run(new LimitNode(scan, null, bigint(-1), ESTIMATE), context()));
        assertEquals(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, limit.state());
        assertEquals("LIMIT must not be negative", limit.getMessage());
        ParallaxException offset = assertThrows(ParallaxException.class,
                () -> TestExecution.run(new LimitNode(scan, bigint(-2), null, ESTIMATE), context()));
        assertEquals("OFFSET must not be negative", offset.getMessage());
        assertEquals("2201X", offset.state().code());
    }

    @Test
    void valuesEmitsLiteralAndParameterRows() {
        List<List<Expr>> rows = List.of(
                List.of(bigint(1), new Literal("a".getBytes(), DataType.TEXT)),
                List.of(new Parameter(0, DataType.BIGINT), Literal.nullOf(DataType.TEXT)));
        ValuesNode values = new ValuesNode(rows, List.of(DataType.BIGINT, DataType.TEXT), ESTIMATE);
        assertEquals(List.of(row(1L, "a"), row(42L, null)), TestExecution.run(values, context(42L)));
    }

    @Test
    void generateSeriesCoversRangeInBatchesAndHandlesStepsAndNulls() {
        List<List<Object>> rows = TestExecution.run(new GenerateSeriesNode(bigint(1), bigint(10_000), null, DataType.BIGINT, ESTIMATE), context());
        assertEquals(10_000, rows.size());
        assertEquals(row(10_000L), rows.get(9_999));
        assertEquals(List.of(row(5L), row(3L), row(1L)),
                TestExecution.run(new GenerateSeriesNode(bigint(5), bigint(0), bigint(-2), DataType.BIGINT, ESTIMATE), context()));
        assertEquals(List.of(row(Long.MAX_VALUE - 1), row(Long.MAX_VALUE)),
                TestExecution.run(new GenerateSeriesNode(bigint(Long.MAX_VALUE - 1), bigint(Long.MAX_VALUE), null, DataType.BIGINT, ESTIMATE), context()));
        assertEquals(List.of(), TestExecution.run(new GenerateSeriesNode(Literal.nullOf(DataType.BIGINT), bigint(3), null, DataType.BIGINT, ESTIMATE), context()));
        ParallaxException zero = assertThrows(ParallaxException.class,
                () -> TestExecution.run(new GenerateSeriesNode(bigint(1), bigint(3), bigint(0), DataType.BIGINT, ESTIMATE), context()));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, zero.state());
        assertEquals("step size cannot equal zero", zero.getMessage());
    }

    @Test
    void sortOrdersByKeysWithDirectionsNullPlacementAndLimit() {
        Table table = TestExecution.table("t", List.of("k", "s"), List.of(DataType.INTEGER, DataType.TEXT), 2, List.of(
                row(2L, "b"), row(null, "x"), row(1L, "z"), row(2L, "a"), row(1L, null), row(3L, "é")));
        SeqScanNode scan = new SeqScanNode(table, new int[]{0, 1}, false, ESTIMATE);
        List<List<Object>> ascending = TestExecution.run(new SortNode(scan,
                List.of(new SortKey(0, false, false), new SortKey(1, true, true)), -1, ESTIMATE), context());
        assertEquals(List.of(row(1L, null), row(1L, "z"), row(2L, "b"), row(2L, "a"), row(3L, "é"), row(null, "x")), ascending);
        List<List<Object>> descending = TestExecution.run(new SortNode(scan,
                List.of(new SortKey(0, true, true), new SortKey(1, false, false)), 3, ESTIMATE), context());
        assertEquals(List.of(row(null, "x"), row(3L, "é"), row(2L, "a")), descending);
    }

    @Test
    void insertAppendsAllRowsInOneCallAndReturnsTheCount() {
        Table target = TestExecution.table("target", List.of("n"), List.of(DataType.BIGINT), 100, List.of());
        List<List<Object>> result = TestExecution.run(new InsertNode(target,
                new GenerateSeriesNode(bigint(1), bigint(5000), null, DataType.BIGINT, ESTIMATE), ESTIMATE), context());
        assertEquals(List.of(row(5000L)), result);
        assertEquals(5000, target.storage().rowCount());
        assertEquals(50, target.storage().pageCount());
    }

    @Test
    void insertLeavesTableUnchangedWhenInputFails() {
        Table source = numbers(50);
        ((InMemoryTableStorage) source.storage()).failOnPage(3);
        Table target = TestExecution.table("target", List.of("n"), List.of(DataType.BIGINT), 100, List.of());
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TestExecution.run(
                new InsertNode(target, new SeqScanNode(source, new int[]{0}, false, ESTIMATE), ESTIMATE), context()));
        assertEquals(SqlState.DIVISION_BY_ZERO, failure.state());
        assertEquals(0, target.storage().rowCount());
    }

    @Test
    void filterNarrowsSelectionAndSkipsBatchesWithoutLiveRows() {
        SeqScanNode scan = new SeqScanNode(numbers(30), new int[]{0}, false, ESTIMATE);
        ExecutionContext context = context();
        Operator input = dev.parallax.engine.exec.Executor.open(scan, context);
        // Keeps multiples of 10: most 7-row pages have none and must be skipped.
        FilterOperator filter = new FilterOperator(input, (batch, selectionOut) -> {
            long[] values = ((LongVector) batch.column(0)).values();
            int count = 0;
            for (int index = 0; index < batch.selectedCount(); index++) {
                int position = batch.position(index);
                if (values[position] % 10 == 0) {
                    selectionOut[count++] = position;
                }
            }
            return count;
        });
        try (filter) {
            assertEquals(List.of(row(10L), row(20L), row(30L)), TestExecution.drain(filter));
        }
    }

    @Test
    void projectComputesColumnsAndKeepsTheInputSelection() {
        SeqScanNode scan = new SeqScanNode(numbers(5), new int[]{0}, false, ESTIMATE);
        Operator input = new LimitOperatorOffsetTwo(dev.parallax.engine.exec.Executor.open(scan, context()));
        LongVector doubled = new LongVector(DataType.BIGINT, 4096);
        ProjectOperator project = new ProjectOperator(input, new dev.parallax.engine.expr.eval.VectorExpression[]{batch -> {
            long[] values = ((LongVector) batch.column(0)).values();
            for (int index = 0; index < batch.selectedCount(); index++) {
                int position = batch.position(index);
                doubled.set(position, values[position] * 2);
            }
            return doubled;
        }});
        try (project) {
            assertEquals(List.of(row(6L), row(8L), row(10L)), TestExecution.drain(project));
        }
    }

    /** Offsets through the real limit operator so the projected batch carries a selection. */
    private static final class LimitOperatorOffsetTwo implements Operator {
        private final Operator limit;

        LimitOperatorOffsetTwo(Operator input) {
            this.limit = new dev.parallax.engine.operator.limit.LimitOperator(input, 2, -1);
        }

        @Override
        public dev.parallax.engine.vector.Batch next() {
            return limit.next();
        }

        @Override
        public void close() {
            limit.close();
        }
    }
}
