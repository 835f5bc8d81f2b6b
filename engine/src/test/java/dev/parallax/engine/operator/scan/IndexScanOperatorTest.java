package dev.parallax.engine.operator.scan;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.IndexBound;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Index scans over paged storage: bounds, empty ranges, NULL keys, parameters, text keys, stale indexes rebuilt. */
class IndexScanOperatorTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 8);
    private static final List<DataType> TYPES = List.of(DataType.INTEGER, DataType.TEXT);

    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final PageAllocator allocator = new PageAllocator(memory, 4096);
    private final Settings settings = new Settings();
    private final List<Table> tables = new ArrayList<>();
    private final List<OrderedIndex> indexes = new ArrayList<>();

    @AfterAll
    static void stopWorkers() {
        WORKERS.close();
    }

    @AfterEach
    void free() {
        indexes.forEach(OrderedIndex::close);
        tables.forEach(table -> table.storage().close());
        allocator.close();
    }

    private Table table(int rows) {
        Table table = new Table("t", List.of(new ColumnDefinition("k", DataType.INTEGER, false),
                new ColumnDefinition("s", DataType.TEXT, false)), new PagedTableStorage(TYPES, allocator));
        tables.add(table);
        append(table, 0, rows);
        return table;
    }

    /** Row r: key (r * 7919) % 101 - 50 (many ties), NULL for every 11th row; text "row-r". */
    private static void append(Table table, int from, int to) {
        Batch batch = Batch.create(TYPES, to - from);
        LongVector keys = (LongVector) batch.column(0);
        BytesVector texts = (BytesVector) batch.column(1);
        for (int row = from; row < to; row++) {
            int position = row - from;
            if (row % 11 == 0) {
                keys.setNull(position);
            } else {
                keys.set(position, key(row));
            }
            texts.set(position, ("row-" + row).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(to - from);
        table.storage().append(batch);
    }

    private static long key(int row) {
        return row * 7919L % 101 - 50;
    }

    private OrderedIndex index(Table table, int... keyColumns) {
        OrderedIndex index = OrderedIndex.build("t_idx", table, keyColumns, SortOptions.forMaintenance(settings), WORKERS, 2, 8);
        indexes.add(index);
        return index;
    }

    /** Rows 0..rows-1 with a non-NULL key accepted by {@code keep}, by key then row (the index's order). */
    private static List<List<Object>> expected(int rows, LongPredicate keep) {
        List<Integer> kept = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            if (row % 11 != 0 && keep.test(key(row))) {
                kept.add(row);
            }
        }
        kept.sort(Comparator.comparingLong(IndexScanOperatorTest::key));
        List<List<Object>> result = new ArrayList<>();
        for (int row : kept) {
            result.add(TestExecution.row(key(row), "row-" + row));
        }
        return result;
    }

    private List<List<Object>> scan(OrderedIndex index, IndexBound lower, IndexBound upper, Object... parameters) {
        IndexScanNode node = new IndexScanNode(index.table(), index, new int[] {0, 1}, lower, upper, PlanEstimate.UNKNOWN);
        return TestExecution.run(node, TestExecution.context(WORKERS, settings, parameters));
    }

    private static IndexBound bound(long value, boolean inclusive) {
        return new IndexBound(Literal.ofLong(value, DataType.INTEGER), inclusive);
    }

    @Test
    void rangesFollowInclusiveAndExclusiveBounds() {
        Table table = table(3000);
        OrderedIndex index = index(table, 0);
        assertTrue(table.storage().pageCount() > 3, "the rows span several pages");
        assertEquals(expected(3000, key -> key >= -10 && key < 20), scan(index, bound(-10, true), bound(20, false)));
        assertEquals(expected(3000, key -> key > -10 && key <= 20), scan(index, bound(-10, false), bound(20, true)));
        assertEquals(expected(3000, key -> key == 7), scan(index, bound(7, true), bound(7, true)));
        assertEquals(expected(3000, key -> key < -45), scan(index, null, bound(-45, false)));
        assertEquals(expected(3000, key -> key >= 48), scan(index, bound(48, true), null));
    }

    @Test
    void emptyRangesReturnNoRows() {
        OrderedIndex index = index(table(2000), 0);
        assertEquals(List.of(), scan(index, bound(20, true), bound(10, true)));
        assertEquals(List.of(), scan(index, bound(7, false), bound(7, true)));
        assertEquals(List.of(), scan(index, bound(1000, true), null));
        assertEquals(List.of(), scan(index, null, bound(-50, false)));
        assertEquals(List.of(), scan(index, new IndexBound(Literal.nullOf(DataType.INTEGER), true), null));
    }

    @Test
    void boundsExcludeNullKeysAndOpenScansReturnThemLast() {
        OrderedIndex index = index(table(500), 0);
        List<List<Object>> bounded = scan(index, bound(-1000, true), null);
        assertEquals(expected(500, key -> true), bounded);
        List<List<Object>> all = scan(index, null, null);
        assertEquals(500, all.size());
        assertEquals(bounded, all.subList(0, bounded.size()));
        for (List<Object> row : all.subList(bounded.size(), all.size())) {
            assertEquals(null, row.get(0));
        }
        assertEquals(List.of("row-0", "row-11", "row-22"), all.subList(bounded.size(), bounded.size() + 3).stream().map(row -> row.get(1)).toList());
    }

    @Test
    void backwardScansReturnTheRangeReversedWithNullKeysFirst() {
        OrderedIndex index = index(table(1500), 0);
        List<List<Object>> forward = scan(index, bound(-20, false), bound(30, true));
        List<List<Object>> backward = TestExecution.run(new IndexScanNode(index.table(), index, new int[] {0, 1},
                bound(-20, false), bound(30, true), true, PlanEstimate.UNKNOWN), TestExecution.context(WORKERS, settings));
        assertEquals(expected(1500, key -> key > -20 && key <= 30).reversed(), backward);
        assertEquals(forward.reversed(), backward);
        List<List<Object>> all = TestExecution.run(new IndexScanNode(index.table(), index, new int[] {0, 1}, null, null, true,
                PlanEstimate.UNKNOWN), TestExecution.context(WORKERS, settings));
        assertEquals(1500, all.size());
        assertEquals(TestExecution.row(null, "row-1496"), all.getFirst());
        assertEquals(scan(index, null, null).reversed(), all);
    }

    @Test
    void parametersBindTheBoundsPerExecution() {
        OrderedIndex index = index(table(1000), 0);
        IndexBound lower = new IndexBound(new Parameter(0, DataType.INTEGER), true);
        IndexBound upper = new IndexBound(new Parameter(1, DataType.INTEGER), false);
        assertEquals(expected(1000, key -> key >= 3 && key < 9), scan(index, lower, upper, 3L, 9L));
        assertEquals(expected(1000, key -> key >= -30 && key < -29), scan(index, lower, upper, -30L, -29L));
        assertEquals(List.of(), scan(index, lower, upper, null, 9L));
    }

    @Test
    void aStaleIndexIsRebuiltBeforeTheScan() {
        Table table = table(1000);
        OrderedIndex index = index(table, 0);
        append(table, 1000, 1700);
        assertFalse(index.isCurrent());
        assertEquals(expected(1700, key -> key >= 0 && key <= 5), scan(index, bound(0, true), bound(5, true)));
        assertTrue(index.isCurrent());
        assertEquals(1700, index.entryCount());
    }

    @Test
    void deletedRowsStayEntriesThatTheScanSkips() {
        Table table = table(800);
        OrderedIndex index = index(table, 0);
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        // Delete row "row-1" (page 0, slot 1): its entry stays (the index needs no rebuild), the scan skips it.
        storage.delete(0, 1);
        assertTrue(index.isCurrent());
        List<List<Object>> expected = new ArrayList<>(expected(800, key -> key == key(1)));
        expected.removeIf(row -> row.get(1).equals("row-1"));
        assertEquals(expected, scan(index, bound(key(1), true), bound(key(1), true)));
        assertEquals(800, index.entryCount());
        assertEquals(0, index.appendMerges());
    }

    @Test
    void textKeysCompareAsBytes() {
        List<DataType> types = List.of(DataType.TEXT);
        Table table = new Table("w", List.of(new ColumnDefinition("s", DataType.TEXT, false)), new PagedTableStorage(types, allocator));
        tables.add(table);
        List<String> words = List.of("pear", "apple", "fig", "banana", "cherry", "apple", "date");
        Batch batch = Batch.create(types, words.size());
        for (int row = 0; row < words.size(); row++) {
            ((BytesVector) batch.column(0)).set(row, words.get(row).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(words.size());
        table.storage().append(batch);
        OrderedIndex index = index(table, 0);
        IndexScanNode node = new IndexScanNode(table, index, new int[] {0},
                new IndexBound(new Literal("b".getBytes(StandardCharsets.UTF_8), DataType.TEXT), true),
                new IndexBound(new Literal("date".getBytes(StandardCharsets.UTF_8), DataType.TEXT), false), PlanEstimate.UNKNOWN);
        assertEquals(List.of(List.of("banana"), List.of("cherry")), TestExecution.run(node, TestExecution.context(WORKERS, settings)));
    }

    @Test
    void boundsOfAnotherTypeAreRejected() {
        OrderedIndex index = index(table(10), 0);
        assertThrows(IllegalArgumentException.class, () -> new IndexScanNode(index.table(), index, new int[] {0},
                new IndexBound(new Literal(1.5, DataType.DOUBLE), true), null, PlanEstimate.UNKNOWN));
    }

    @Test
    void readRowsReturnsRowsInTheOrderAsked() {
        Table table = table(600);
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        int lastPage = storage.pageCount() - 1;
        long[] rowIds = {((long) lastPage << 32), 3, 2, ((long) lastPage << 32) | 1, 0};
        Batch target = Batch.create(List.of(DataType.TEXT), 1);
        assertEquals(5, storage.readRows(rowIds, 0, 5, new int[] {1}, target));
        Batch page = Batch.create(TYPES, 1);
        int rowsBeforeLast = 0;
        for (int pageIndex = 0; pageIndex < lastPage; pageIndex++) {
            rowsBeforeLast += storage.readPage(pageIndex, new int[] {0, 1}, page);
        }
        BytesVector texts = (BytesVector) target.column(0);
        assertEquals(List.of("row-" + rowsBeforeLast, "row-3", "row-2", "row-" + (rowsBeforeLast + 1), "row-0"),
                List.of(texts.getString(0), texts.getString(1), texts.getString(2), texts.getString(3), texts.getString(4)));
        assertThrows(IndexOutOfBoundsException.class, () -> storage.readRows(new long[] {100_000}, 0, 1, new int[] {1}, target));
    }
}
