package dev.parallax.engine.index;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.StatementProgress;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
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
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Index builds: key order with NULLs last and row id tie-break, serial = parallel = spilled, staleness, catalog lifecycle. */
class OrderedIndexTest {
    private static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("k", DataType.INTEGER, false),
            new ColumnDefinition("s", DataType.TEXT, false));
    private static final WorkerPool WORKERS = new WorkerPool(2, 8);

    @TempDir
    Path temporary;

    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final PageAllocator allocator = new PageAllocator(memory, 4096);
    private final List<Table> tables = new ArrayList<>();

    @AfterAll
    static void stopWorkers() {
        WORKERS.close();
    }

    @AfterEach
    void freeTables() {
        for (Table table : tables) {
            table.storage().close();
        }
        allocator.close();
    }

    /** One row: key (null when {@code key} is null) and text. */
    private record Row(long rowId, Long key, String text) {
    }

    private Table table(int rows, int seed) {
        Table table = new Table("t", COLUMNS, new PagedTableStorage(List.of(DataType.INTEGER, DataType.TEXT), allocator));
        tables.add(table);
        append(table, 0, rows, seed);
        return table;
    }

    /** Appends rows {@code from..to}: keys repeat (many ties), every 13th is NULL, texts share a long prefix. */
    private static void append(Table table, int from, int to, int seed) {
        Batch batch = Batch.create(table.columnTypes(), to - from);
        LongVector keys = (LongVector) batch.column(0);
        BytesVector texts = (BytesVector) batch.column(1);
        for (int row = from; row < to; row++) {
            int position = row - from;
            if (row % 13 == 0) {
                keys.setNull(position);
            } else {
                keys.set(position, (row * 7919L + seed) % 97 - 40);
            }
            texts.set(position, ("shared-prefix-longer-than-eight-bytes-" + (row * 31 % 50)).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(to - from);
        table.storage().append(batch);
    }

    /** Every live row with its row id (page, slot), read page by page as the index reads them. */
    private static List<Row> rows(Table table) {
        List<Row> rows = new ArrayList<>();
        Batch page = Batch.create(table.columnTypes(), 16);
        int[] slots = new int[table.storage().pageSlotCapacity()];
        for (int pageIndex = 0; pageIndex < table.storage().pageCount(); pageIndex++) {
            int count = table.storage().readPage(pageIndex, new int[] {0, 1}, page, null, slots);
            LongVector keys = (LongVector) page.column(0);
            BytesVector texts = (BytesVector) page.column(1);
            for (int row = 0; row < count; row++) {
                rows.add(new Row(RowIds.pack(pageIndex, slots[row]), keys.isNull(row) ? null : keys.get(row), texts.getString(row)));
            }
        }
        return rows;
    }

    private static long[] expected(List<Row> rows, Comparator<Row> keyOrder) {
        return rows.stream().sorted(keyOrder.thenComparingLong(Row::rowId)).mapToLong(Row::rowId).toArray();
    }

    private static final Comparator<Row> BY_KEY = Comparator.comparing(Row::key, Comparator.nullsLast(Comparator.naturalOrder()));
    private static final Comparator<Row> BY_KEY_AND_TEXT = BY_KEY.thenComparing(Row::text);

    private static long[] rowIds(OrderedIndex index) {
        long[] ids = new long[(int) index.entryCount()];
        for (int position = 0; position < ids.length; position++) {
            ids[position] = index.rowId(position);
        }
        return ids;
    }

    private SortOptions options(long memoryBytes) {
        return new SortOptions(memoryBytes, true, temporary);
    }

    @Test
    void ordersKeysWithNullsLastAndRowIdsOnTies() {
        Table table = table(5_000, 3);
        assertTrue(table.storage().pageCount() > 4, "the test needs several pages");
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            assertEquals(5_000, index.entryCount());
            assertEquals(1, index.buildParticipants());
            assertArrayEquals(expected(rows(table), BY_KEY), rowIds(index));
            assertEquals(5_000L * Long.BYTES, index.sizeBytes());
        }
    }

    @Test
    void parallelAndSpilledBuildsEqualTheSerialOne() throws IOException {
        Table table = table(20_000, 11);
        long[] expected = expected(rows(table), BY_KEY_AND_TEXT);
        try (OrderedIndex serial = OrderedIndex.build("i1", table, new int[] {0, 1}, options(64L << 20), null, 0, 8);
             OrderedIndex parallel = OrderedIndex.build("i2", table, new int[] {0, 1}, options(64L << 20), WORKERS, 2, 8);
             OrderedIndex spilled = OrderedIndex.build("i3", table, new int[] {0, 1}, options(64 * 1024), WORKERS, 1, 8)) {
            assertArrayEquals(expected, rowIds(serial));
            assertTrue(parallel.buildParticipants() > 1, "workers were granted");
            assertArrayEquals(expected, rowIds(parallel));
            assertArrayEquals(expected, rowIds(spilled));
        }
        try (Stream<Path> left = Files.list(temporary)) {
            assertEquals(List.of(), left.toList(), "no temporary file left behind");
        }
        assertEquals(WORKERS.idleWorkers(), 8, "workers given back");
    }

    @Test
    void appendedRowsMakeTheIndexStaleUntilRebuilt() {
        Table table = table(1_000, 5);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            assertTrue(index.isCurrent());
            append(table, 1_000, 1_500, 5);
            assertFalse(index.isCurrent());
            assertEquals(1_000, index.entryCount());
            index.rebuild(options(64L << 20), WORKERS, 2, 8);
            assertTrue(index.isCurrent());
            assertArrayEquals(expected(rows(table), BY_KEY), rowIds(index));
        }
    }

    @Test
    void appendedRowsAreMergedIntoTheOrderAtTheNextReaderWithoutASort() {
        Table table = table(20_000, 9);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0, 1}, options(64L << 20), WORKERS, 2, 8)) {
            // Small appends, each a few rows into the last page or onto new ones, keys tying with old ones and NULLs.
            int end = 20_000;
            for (int step = 1; step <= 4; step++) {
                append(table, end, end + step * 37, step);
                end += step * 37;
                assertFalse(index.isCurrent());
                try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), WORKERS, 2, 8)) {
                    assertTrue(index.isCurrent());
                    assertEquals(step, index.appendMerges(), "merged, not re-sorted");
                    assertEquals(end, index.entryCount());
                    assertArrayEquals(expected(rows(table), BY_KEY_AND_TEXT), rowIds(index));
                }
            }
            // An append as large as the index: re-sorting everything is cheaper than placing each row.
            append(table, end, end + 20_000, 5);
            try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), WORKERS, 2, 8)) {
                assertTrue(index.isCurrent());
                assertEquals(4, index.appendMerges());
                assertArrayEquals(expected(rows(table), BY_KEY_AND_TEXT), rowIds(index));
            }
        }
    }

    @Test
    void appendsBeforeAfterAndAmongTheEntriesAreMergedInPlaceUntilTheRoomRunsOut() {
        Table table = table(2_000, 3);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0, 1}, options(64L << 20), null, 0, 8)) {
            long builtBytes = index.sizeBytes();
            for (int step = 1; step <= 30; step++) {
                Long[] keys = new Long[10];
                for (int row = 0; row < keys.length; row++) {
                    keys[row] = switch (step % 5) {
                        case 0 -> -1_000L;                          // before every entry
                        case 1 -> 1_000L;                           // after every non-NULL entry
                        case 2 -> null;                             // among the NULLs, last
                        case 3 -> 0L;                               // ties with old rows, ordered by text then row id
                        default -> row % 2 == 0 ? -40L + row : 56L; // the first and last keys and a spread
                    };
                }
                appendKeys(table, keys, "step-" + step);
                try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), null, 0, 8)) {
                    assertEquals(step, index.appendMerges(), "merged, not re-sorted");
                    assertEquals(2_000 + 10L * step, index.entryCount());
                    assertArrayEquals(expected(rows(table), BY_KEY_AND_TEXT), rowIds(index), "step " + step);
                }
                if (step == 1) {
                    assertTrue(index.sizeBytes() > builtBytes + 10 * Long.BYTES, "the first merge leaves room for later ones");
                }
            }
            assertTrue(index.sizeBytes() >= index.entryCount() * Long.BYTES);
        }
    }

    private static void appendKeys(Table table, Long[] keys, String text) {
        Batch batch = Batch.create(table.columnTypes(), keys.length);
        for (int row = 0; row < keys.length; row++) {
            if (keys[row] == null) {
                batch.column(0).setNull(row);
            } else {
                ((LongVector) batch.column(0)).set(row, keys[row]);
            }
            ((BytesVector) batch.column(1)).set(row, (text + "-" + (row % 3)).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(keys.length);
        table.storage().append(batch);
    }

    @Test
    void deletedRowsStayEntriesThatReadersOfLaterSnapshotsSkip() {
        Table table = table(2_000, 4);
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        List<Row> indexed = rows(table);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            var before = storage.snapshot();
            List<Long> deleted = new ArrayList<>();
            for (int row = 0; row < indexed.size(); row += 7) {
                long rowId = indexed.get(row).rowId();
                assertTrue(storage.delete(RowIds.pageIndex(rowId), RowIds.row(rowId)));
                deleted.add(rowId);
            }
            assertTrue(index.isCurrent(), "a delete leaves the index's entries in place");
            assertEquals(2_000, index.entryCount());
            long[] entries = rowIds(index);
            long[] visibleNow = entries.clone();
            int kept = storage.retainVisible(visibleNow, 0, visibleNow.length, storage.snapshot());
            assertArrayEquals(Arrays.stream(entries).filter(id -> !deleted.contains(id)).toArray(), Arrays.copyOf(visibleNow, kept));
            long[] visibleBefore = entries.clone();
            assertEquals(entries.length, storage.retainVisible(visibleBefore, 0, visibleBefore.length, before),
                    "a reader whose snapshot predates the deletes still sees the rows");

            append(table, 2_000, 2_010, 4);
            List<Row> appended = rows(table).stream().filter(row -> RowIds.pageIndex(row.rowId()) >= before.pageCount() - 1
                    && (RowIds.pageIndex(row.rowId()) >= before.pageCount() || RowIds.row(row.rowId()) >= before.lastPageSlots())).toList();
            assertEquals(10, appended.size());
            try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), null, 0, 8)) {
                assertEquals(1, index.appendMerges());
                List<Row> expectedRows = new ArrayList<>(indexed);
                expectedRows.addAll(appended);
                assertArrayEquals(expected(expectedRows, BY_KEY), rowIds(index), "deleted rows remain entries, appended ones join");
                long[] visibleAfter = rowIds(index);
                long[] appendedIds = appended.stream().mapToLong(Row::rowId).toArray();
                long[] newOnly = Arrays.copyOf(appendedIds, appendedIds.length);
                assertEquals(0, storage.retainVisible(newOnly, 0, newOnly.length, before), "appended after the snapshot");
                assertEquals(2_010 - deleted.size(), storage.retainVisible(visibleAfter, 0, visibleAfter.length, storage.snapshot()));
            }
        }
    }

    @Test
    void aVacuumCompactionMakesTheIndexResortNotMerge() {
        Table table = table(2_000, 2);
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            for (Row row : rows(table)) {
                if (RowIds.pageIndex(row.rowId()) == 1 && RowIds.row(row.rowId()) % 2 == 0) {
                    storage.delete(RowIds.pageIndex(row.rowId()), RowIds.row(row.rowId()));
                }
            }
            assertTrue(index.isCurrent());
            storage.compactPage(1, storage.compactionBuffers(), null);
            assertFalse(index.isCurrent(), "slots were renumbered");
            append(table, 2_000, 2_010, 2);
            try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), null, 0, 8)) {
                assertEquals(0, index.appendMerges(), "re-sorted, not merged");
                assertTrue(index.isCurrent());
                assertArrayEquals(expected(rows(table), BY_KEY), rowIds(index));
            }
        }
    }

    @Test
    void aRebuildWaitsForAnOpenReaderWhichKeepsSeeingTheRowIdsItOpened() throws Exception {
        Table table = table(1_000, 5);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            long[] before = rowIds(index);
            OrderedIndex.Reader reader = index.openReader(options(64L << 20), null, 0, 8);
            append(table, 1_000, 1_500, 5);
            Thread rebuild = new Thread(() -> index.rebuild(options(64L << 20), WORKERS, 2, 8));
            rebuild.start();
            rebuild.join(300);
            assertTrue(rebuild.isAlive(), "the rebuild must wait while a scan reads the index");
            assertArrayEquals(before, rowIds(index));
            reader.close();
            rebuild.join(10_000);
            assertFalse(rebuild.isAlive());
            assertTrue(index.isCurrent());
            assertArrayEquals(expected(rows(table), BY_KEY), rowIds(index));
        }
    }

    @Test
    void openingAStaleIndexRebuildsItFirst() {
        Table table = table(1_000, 5);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8)) {
            append(table, 1_000, 1_200, 5);
            try (OrderedIndex.Reader reader = index.openReader(options(64L << 20), WORKERS, 2, 8)) {
                assertTrue(index.isCurrent());
                assertArrayEquals(expected(rows(table), BY_KEY), rowIds(index));
            }
        }
    }

    @Test
    void emptyTable() {
        Table table = table(0, 1);
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {1}, options(64L << 20), WORKERS, 2, 8)) {
            assertEquals(0, index.entryCount());
            assertTrue(index.isCurrent());
            assertThrows(IndexOutOfBoundsException.class, () -> index.rowId(0));
        }
    }

    @Test
    void catalogSharesTheRelationNamespaceAndFreesIndexesWithTheirTable() {
        Catalog catalog = new Catalog();
        Table table = new Table("t", COLUMNS, new PagedTableStorage(List.of(DataType.INTEGER, DataType.TEXT), allocator));
        catalog.addTable(table);
        append(table, 0, 100, 2);
        OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8);
        catalog.addIndex(index);
        assertSame(index, catalog.findIndex("t_k"));
        assertEquals(List.of(index), table.indexes());
        assertTrue(catalog.relationExists("t_k"));

        OrderedIndex sameNameAsTable = OrderedIndex.build("t", table, new int[] {0}, options(64L << 20), null, 0, 8);
        ParallaxException duplicate = assertThrows(ParallaxException.class, () -> catalog.addIndex(sameNameAsTable));
        assertEquals(SqlState.DUPLICATE_TABLE, duplicate.state());
        assertEquals("relation \"t\" already exists", duplicate.getMessage());
        sameNameAsTable.close();
        ParallaxException tableNamedLikeIndex = assertThrows(ParallaxException.class,
                () -> catalog.addTable(new Table("t_k", COLUMNS, table.storage())));
        assertEquals("relation \"t_k\" already exists", tableNamedLikeIndex.getMessage());

        assertTrue(catalog.dropTable("t"));
        assertNull(catalog.findIndex("t_k"));
        assertThrows(IllegalStateException.class, () -> index.rowId(0), "dropping the table freed its index");
        assertFalse(catalog.dropIndex("t_k"));
    }

    @Test
    void dropIndexFreesIt() {
        Catalog catalog = new Catalog();
        Table table = new Table("t", COLUMNS, new PagedTableStorage(List.of(DataType.INTEGER, DataType.TEXT), allocator));
        tables.add(table);
        catalog.addTable(table);
        OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), null, 0, 8);
        catalog.addIndex(index);
        assertTrue(catalog.dropIndex("t_k"));
        assertEquals(List.of(), table.indexes());
        assertFalse(index.isCurrent());
        assertThrows(IllegalStateException.class, () -> index.rowId(0));
        assertTrue(Arrays.asList(catalog.tables().toArray()).contains(table));
    }

    private ExecutionContext statement() {
        return new ExecutionContext(memory, WORKERS, new Settings(), new Object[0], 0, false);
    }

    @Test
    void reportsScannedPagesThenLoadedEntriesToItsStatement() {
        Table table = table(5_000, 5);
        ExecutionContext statement = statement();
        try (OrderedIndex index = OrderedIndex.build("t_k", table, new int[] {0}, options(64L << 20), WORKERS, 2, 8, statement)) {
            StatementProgress.Snapshot last = statement.progress().snapshot();
            assertEquals("building index: loading tuples in tree", last.phase());
            assertEquals(5_000, last.done());
            assertEquals(5_000, last.total());
            assertEquals("rows", last.unit());
            assertEquals(5_000, index.entryCount());
        }
    }

    @Test
    void aCancelledBuildStopsWithQueryCanceledAndLeavesNoTemporaryFile() throws IOException {
        Table table = table(20_000, 7);
        ExecutionContext statement = statement();
        statement.cancel("canceling statement due to user request");
        // A tiny memory budget would spill: the cancelled build must leave no run file behind.
        ParallaxException cancelled = assertThrows(ParallaxException.class,
                () -> OrderedIndex.build("t_k", table, new int[] {0, 1}, options(64 * 1024), WORKERS, 2, 8, statement));
        assertEquals(SqlState.QUERY_CANCELED, cancelled.state());
        try (Stream<Path> left = Files.list(temporary)) {
            assertEquals(List.of(), left.toList());
        }
    }
}
