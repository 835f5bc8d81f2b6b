package dev.parallax.engine.storage;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryMappings;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.NativePage;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PagedTableStorageTest {
    private static final List<DataType> ALL_TYPES = List.of(
            DataType.BOOLEAN, DataType.SMALLINT, DataType.INTEGER, DataType.BIGINT, DataType.decimal(15, 2),
            DataType.REAL, DataType.DOUBLE, DataType.DATE, DataType.TIMESTAMP, DataType.charType(3),
            DataType.varchar(20), DataType.TEXT);
    private static final int[] ALL_COLUMNS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

    /** Row i of the test data; every 7th row has NULLs in the odd columns. */
    private static void fillRow(Batch batch, int position, int i) {
        boolean nulls = i % 7 == 3;
        ((LongVector) batch.column(0)).set(position, i % 2);
        if (nulls) {
            batch.column(1).setNull(position);
        } else {
            ((LongVector) batch.column(1)).set(position, (short) (i - 30_000));
        }
        ((LongVector) batch.column(2)).set(position, -i * 1000L);
        if (nulls) {
            batch.column(3).setNull(position);
        } else {
            ((LongVector) batch.column(3)).set(position, Long.MAX_VALUE - i);
        }
        ((LongVector) batch.column(4)).set(position, i * 101L);
        if (nulls) {
            batch.column(5).setNull(position);
        } else {
            ((DoubleVector) batch.column(5)).set(position, i + 0.5);
        }
        ((DoubleVector) batch.column(6)).set(position, i / 3.0);
        ((LongVector) batch.column(7)).set(position, 9000 + i);
        ((LongVector) batch.column(8)).set(position, 1_000_000_000_000L + i);
        ((BytesVector) batch.column(9)).set(position, bytes(String.format("%-3s", Integer.toString(i % 1000))));
        if (nulls) {
            batch.column(10).setNull(position);
        } else {
            ((BytesVector) batch.column(10)).set(position, bytes("v" + "x".repeat(i % 19)));
        }
        ((BytesVector) batch.column(11)).set(position, bytes(i % 5 == 0 ? "" : "text " + i));
    }

    private static void assertRow(Batch batch, int position, int i) {
        boolean nulls = i % 7 == 3;
        assertEquals(i % 2, ((LongVector) batch.column(0)).get(position));
        if (nulls) {
            assertTrue(batch.column(1).isNull(position));
            assertTrue(batch.column(3).isNull(position));
            assertTrue(batch.column(5).isNull(position));
            assertTrue(batch.column(10).isNull(position));
        } else {
            assertFalse(batch.column(1).isNull(position));
            assertEquals((short) (i - 30_000), ((LongVector) batch.column(1)).get(position));
            assertEquals(Long.MAX_VALUE - i, ((LongVector) batch.column(3)).get(position));
            assertEquals(i + 0.5, ((DoubleVector) batch.column(5)).get(position));
            assertEquals("v" + "x".repeat(i % 19), ((BytesVector) batch.column(10)).getString(position));
        }
        assertEquals(-i * 1000L, ((LongVector) batch.column(2)).get(position));
        assertEquals(i * 101L, ((LongVector) batch.column(4)).get(position));
        assertEquals(i / 3.0, ((DoubleVector) batch.column(6)).get(position));
        assertEquals(9000 + i, ((LongVector) batch.column(7)).get(position));
        assertEquals(1_000_000_000_000L + i, ((LongVector) batch.column(8)).get(position));
        assertEquals(String.format("%-3s", Integer.toString(i % 1000)), ((BytesVector) batch.column(9)).getString(position));
        assertEquals(i % 5 == 0 ? "" : "text " + i, ((BytesVector) batch.column(11)).getString(position));
        assertFalse(batch.column(0).isNull(position));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Batch batchOf(List<DataType> types, int from, int count) {
        Batch batch = Batch.create(types, count);
        for (int index = 0; index < count; index++) {
            fillRow(batch, index, from + index);
        }
        batch.setRowCount(count);
        return batch;
    }

    /** Reads every page and returns the rows' test indexes (column 7 minus 9000) in order. */
    private static List<Integer> readAll(PagedTableStorage storage, List<DataType> types, boolean check) {
        List<Integer> seen = new ArrayList<>();
        Batch target = Batch.create(types, 16);
        for (int page = 0; page < storage.pageCount(); page++) {
            int rows = storage.readPage(page, ALL_COLUMNS, target);
            assertEquals(rows, target.rowCount());
            assertNull(target.selection());
            for (int position = 0; position < rows; position++) {
                int i = (int) (((LongVector) target.column(7)).get(position) - 9000);
                if (check) {
                    assertRow(target, position, i);
                }
                seen.add(i);
            }
        }
        return seen;
    }

    @Test
    void roundTripsEveryTypeAcrossPages() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 1000));
            storage.append(batchOf(ALL_TYPES, 1000, 1));
            storage.append(batchOf(ALL_TYPES, 1001, 999));
            assertEquals(2000, storage.rowCount());
            assertTrue(storage.pageCount() > 20, "small pages force many: " + storage.pageCount());
            List<Integer> seen = readAll(storage, ALL_TYPES, true);
            assertEquals(2000, seen.size());
            for (int i = 0; i < 2000; i++) {
                assertEquals(i, seen.get(i));
            }
            assertEquals((long) storage.pageCount() * 4096, storage.sizeBytes());
            storage.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    /**
     * The addresses named for the next one-row append are the lines it writes: every byte of the
     * tail page that the append of a row without NULLs changes lies in one of them (with three
     * columns, one of text, all fit in {@link PagedTableStorage#APPEND_LINES}). A line left out would be a miss the prefetch
     * was meant to hide, not a wrong result: this is what catches it.
     */
    @Test
    void appendLineAddressesNameEveryLineAOneRowAppendWrites() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 16384, 8)) {
            List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT, DataType.TIMESTAMP);
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            Batch row = Batch.create(types, 1);
            long[] lines = new long[PagedTableStorage.APPEND_LINES];
            int checked = 0;
            for (int i = 0; i < 600; i++) {
                row.reset();
                ((LongVector) row.column(0)).set(0, i);
                ((BytesVector) row.column(1)).set(0, bytes("value " + "x".repeat(i % 40) + i));
                ((LongVector) row.column(2)).set(0, 1_000_000L * i);
                row.setRowCount(1);
                int pagesBefore = storage.pageCount();
                storage.appendLineAddresses(lines, 0);
                byte[] before = pagesBefore == 0 ? null : storage.pages[pagesBefore - 1].segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                storage.modify(List.of(row), new long[0], 0, null);
                if (storage.pageCount() != pagesBefore) {
                    continue; // a new page: the next append after this one is checked
                }
                long page = storage.pages[pagesBefore - 1].segment().address();
                byte[] after = storage.pages[pagesBefore - 1].segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                for (int offset = 0; offset < after.length; offset++) {
                    if (before[offset] != after[offset]) {
                        long line = (page + offset) & -64L;
                        boolean named = false;
                        for (long address : lines) {
                            named |= (address & -64L) == line;
                        }
                        assertTrue(named, "append " + i + " wrote byte " + offset + " of the page, on a line not named");
                    }
                }
                checked++;
            }
            assertTrue(checked > 500, "appends checked: " + checked);
            storage.close();
        }
    }

    @Test
    void textValuesInAnyHeapLayoutRoundTripAcrossPages() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT, DataType.TEXT);
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            // Column 1 is filled in position order (values back to back: written to a page in one copy),
            // column 2 from the last position to the first (each value copied on its own).
            Batch batch = Batch.create(types, 600);
            for (int position = 0; position < 600; position++) {
                ((LongVector) batch.column(0)).set(position, position);
                ((BytesVector) batch.column(1)).set(position, bytes("forward " + "f".repeat(position % 23) + position));
            }
            for (int position = 599; position >= 0; position--) {
                ((BytesVector) batch.column(2)).set(position, bytes("backward " + position));
            }
            batch.setRowCount(600);
            storage.append(batch);
            assertTrue(storage.pageCount() > 5, "pages: " + storage.pageCount());
            Batch page = Batch.create(types, 16);
            int expected = 0;
            for (int pageIndex = 0; pageIndex < storage.pageCount(); pageIndex++) {
                int rows = storage.readPage(pageIndex, new int[] {0, 1, 2}, page);
                for (int row = 0; row < rows; row++, expected++) {
                    assertEquals(expected, ((LongVector) page.column(0)).get(row));
                    assertEquals("forward " + "f".repeat(expected % 23) + expected, ((BytesVector) page.column(1)).getString(row));
                    assertEquals("backward " + expected, ((BytesVector) page.column(2)).getString(row));
                }
            }
            assertEquals(600, expected);
            storage.close();
        }
    }

    @Test
    void readsAProjectionAndHonoursTheBatchSelection() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 1 << 17)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            Batch batch = batchOf(ALL_TYPES, 0, 100);
            int[] evens = new int[50];
            for (int index = 0; index < 50; index++) {
                evens[index] = index * 2;
            }
            batch.setSelection(evens, 50);
            storage.append(batch);
            assertEquals(50, storage.rowCount());
            Batch target = Batch.create(List.of(DataType.TEXT, DataType.INTEGER), 4);
            assertEquals(50, storage.readPage(0, new int[] {11, 2}, target));
            for (int position = 0; position < 50; position++) {
                int i = position * 2;
                assertEquals(i % 5 == 0 ? "" : "text " + i, ((BytesVector) target.column(0)).getString(position));
                assertEquals(-i * 1000L, ((LongVector) target.column(1)).get(position));
            }
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void deletedRowsAreSkipped() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 300));
            int slotsOnFirstPage = storage.pageRowSlots(0);
            assertTrue(storage.delete(0, 0));
            assertTrue(storage.delete(0, 3));
            assertFalse(storage.delete(0, 3), "already deleted");
            assertTrue(storage.isDeleted(0, 3));
            assertFalse(storage.isDeleted(0, 4));
            assertEquals(2, storage.pageDeletedRows(0));
            assertEquals(298, storage.rowCount());
            List<Integer> seen = readAll(storage, ALL_TYPES, true);
            assertEquals(298, seen.size());
            assertEquals(List.of(1, 2, 4, 5), seen.subList(0, 4));
            Batch target = Batch.create(ALL_TYPES, 4);
            assertEquals(slotsOnFirstPage - 2, storage.readPage(0, ALL_COLUMNS, target));
            assertThrows(IndexOutOfBoundsException.class, () -> storage.delete(0, slotsOnFirstPage));
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void modifyReplacesVersionsAndScansKeepTheirSnapshot() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            List<DataType> types = List.of(DataType.BIGINT);
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            storage.append(longs(types, 0, 10));
            ScanCursor before = storage.openScan(1);
            // Row 3 (page 0, slot 3) becomes 103: the new version goes to the end, the old one dies.
            long[] killed = {dev.parallax.engine.index.RowIds.pack(0, 3)};
            long[][] placed = new long[1][];
            assertTrue(storage.modify(List.of(longs(types, 103, 1)), killed, 1, (batches, rowIds) -> placed[0] = rowIds[0].clone()));
            assertEquals(dev.parallax.engine.index.RowIds.pack(0, 10), placed[0][0]);
            assertEquals(10, storage.rowCount());
            assertEquals(1, storage.deadRowCount());
            assertEquals(1, storage.pageDeletedRows(0));
            assertTrue(storage.isDead(killed[0]));
            assertTrue(storage.deathSequence(0, 3) > before.snapshot().sequence());
            assertFalse(storage.modify(List.of(longs(types, 203, 1)), killed, 1, null), "a dead row cannot be replaced again");
            assertEquals(10, storage.rowCount());
            // The scan opened before sees the old version only, one opened after the new version only.
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), scanValues(storage, before));
            assertEquals(List.of(0L, 1L, 2L, 4L, 5L, 6L, 7L, 8L, 9L, 103L), scanValues(storage, storage.openScan(1)));
            // Slots come out with the rows, so a writer can address what it read.
            Batch target = Batch.create(types, 16);
            int[] slots = new int[storage.pageSlotCapacity()];
            assertEquals(10, storage.readPage(0, new int[] {0}, target, storage.snapshot(), slots));
            assertEquals(4, slots[3]);
            assertEquals(10, slots[9]);
            // A dead slot still reads through its row id (an index built earlier addresses it).
            storage.readRows(killed, 0, 1, new int[] {0}, target);
            assertEquals(3L, ((LongVector) target.column(0)).get(0));
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void pagesGoOntoHugePagesOnlyWhenPreferredAndOnlyAsTheirSlabsFill() {
        MemoryManager memory = new MemoryManager(1L << 30);
        List<DataType> types = List.of(DataType.BIGINT);
        AtomicInteger moves = new AtomicInteger();
        // Four pages per slab; the moves run at once, counted.
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 4, task -> {
            moves.incrementAndGet();
            task.run();
        })) {
            PagedTableStorage scanned = new PagedTableStorage(types, allocator);
            scanned.append(longs(types, 0, 3000));
            assertTrue(scanned.pageCount() >= 8, "pages: " + scanned.pageCount());
            assertEquals(0, moves.get(), "a table nobody reads at random stays on ordinary pages");
            scanned.close();

            PagedTableStorage indexed = new PagedTableStorage(types, allocator);
            indexed.append(longs(types, 0, 3000));
            int pages = indexed.pageCount();
            assertTrue(pages % 4 != 0, "the last slab is still being filled: " + pages);
            assertEquals(0, moves.get());
            indexed.preferHugePages();
            assertEquals(pages / 4, moves.get(), "the full slabs move, not the one being filled");
            indexed.preferHugePages();
            assertEquals(pages / 4, moves.get(), "once per slab");
            long next = 3000;
            while (indexed.pageCount() < 4 * (pages / 4 + 1)) {
                // A write that fills the slab being filled moves it, once the write is done.
                indexed.append(longs(types, next, 100));
                next += 100;
            }
            assertEquals(indexed.pageCount() / 4, moves.get());
            Batch target = Batch.create(types, 16);
            assertEquals(1, indexed.readRows(new long[] {RowIds.pack(0, 5)}, 0, 1, new int[] {0}, target));
            assertEquals(5L, ((LongVector) target.column(0)).get(0));
            indexed.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    /**
     * The pages VACUUM puts in place of a keyed table's pages (a compacted copy, VACUUM FULL's
     * rewritten pages) are as long-lived and as randomly read as the ones they replace: they are
     * offered for huge pages too, and their slabs move once full. 1 MiB pages, 2 per slab: each
     * slab is one huge page, whose advice {@code /proc/self/smaps} shows.
     */
    @Test
    void pagesVacuumPutsInPlaceOfAKeyedTablesPagesGoOntoHugePagesToo() {
        MemoryManager memory = new MemoryManager(1L << 30);
        List<Runnable> queued = new ArrayList<>();
        List<DataType> types = List.of(DataType.BIGINT);
        try (PageAllocator allocator = new PageAllocator(memory, 1 << 20, 2, queued::add)) {
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            int rowsPerPage = storage.layout().rowsPerPage();
            storage.append(longs(types, 0, 4 * rowsPerPage));
            assertEquals(4, storage.pageCount());
            storage.preferHugePages();
            assertEquals(2, queued.size(), "both full slabs");
            runAll(queued);
            for (int page = 0; page < 4; page++) {
                assertAdvised(storage, page);
            }

            // VACUUM: the copies of pages 0 and 3 fill a new slab, which then moves too.
            List<Long> expected = new ArrayList<>();
            for (long value = 0; value < 4L * rowsPerPage; value++) {
                int page = (int) (value / rowsPerPage);
                if ((page == 0 || page == 3) && value % 3 == 0) {
                    assertTrue(storage.delete(page, (int) (value % rowsPerPage)));
                } else {
                    expected.add(value);
                }
            }
            CompactionBuffers buffers = storage.compactionBuffers();
            assertEquals(rowsPerPage - (rowsPerPage + 2) / 3, storage.compactPage(0, buffers, null).liveRows());
            assertEquals(List.of(), queued, "the new slab is still being filled");
            storage.compactPage(3, buffers, null);
            assertEquals(1, queued.size(), "the copies' slab, once full");
            storage.reclaimRetiredPages();
            runAll(queued);
            assertAdvised(storage, 0);
            assertAdvised(storage, 3);
            assertEquals(expected, scanAll(storage));

            // VACUUM FULL: every rewritten page is offered; the slabs they fill move.
            assertNotNull(storage.rewriteCompactly(Batch.create(types, 16), null, 0, pages -> {
            }, () -> false));
            storage.reclaimRetiredPages();
            assertEquals(1, queued.size(), "the one new slab the rewrite filled (the others moved before)");
            runAll(queued);
            for (int page = 0; page < storage.pageCount(); page++) {
                assertAdvised(storage, page);
            }
            assertEquals(expected, scanAll(storage));
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    private static List<Long> scanAll(PagedTableStorage storage) {
        try (ScanCursor cursor = storage.openScan(1)) {
            return scanValues(storage, cursor);
        }
    }

    private static void runAll(List<Runnable> queued) {
        while (!queued.isEmpty()) {
            queued.removeFirst().run();
        }
    }

    private static void assertAdvised(PagedTableStorage storage, int page) {
        if (MemoryMappings.flagsVisible()) {
            assertTrue(MemoryMappings.hugePagesAdvised(storage.pageOrHole(page).address()), "page " + page);
        }
    }

    private static Batch longs(List<DataType> types, long first, int count) {
        Batch batch = Batch.create(types, count);
        for (int row = 0; row < count; row++) {
            ((LongVector) batch.column(0)).set(row, first + row);
        }
        batch.setRowCount(count);
        return batch;
    }

    private static List<Long> scanValues(PagedTableStorage storage, ScanCursor cursor) {
        List<Long> values = new ArrayList<>();
        Batch batch = Batch.create(storage.columnTypes(), 16);
        long chunk;
        while ((chunk = cursor.nextChunk()) != ScanCursor.EXHAUSTED) {
            for (int page = ScanCursor.firstPage(chunk); page < ScanCursor.firstPage(chunk) + ScanCursor.pageCount(chunk); page++) {
                int rows = storage.readPage(page, new int[] {0}, batch, cursor.snapshot(), null);
                for (int row = 0; row < rows; row++) {
                    values.add(((LongVector) batch.column(0)).get(row));
                }
            }
        }
        return values;
    }

    @Test
    void rowTooBigForAnEmptyPageIsRejected() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT);
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            Batch batch = Batch.create(types, 2);
            ((LongVector) batch.column(0)).set(0, 1);
            ((BytesVector) batch.column(1)).set(0, bytes("small"));
            ((LongVector) batch.column(0)).set(1, 2);
            ((BytesVector) batch.column(1)).set(1, new byte[5000]);
            batch.setRowCount(2);
            ParallaxException error = assertThrows(ParallaxException.class, () -> storage.append(batch));
            assertEquals(SqlState.PROGRAM_LIMIT_EXCEEDED, error.state());
            int maximum = storage.layout().fixedBytesPerRow() + storage.layout().emptyPageHeapBytes();
            assertEquals("row is too big: size " + (5000 + storage.layout().fixedBytesPerRow()) + ", maximum size " + maximum,
                    error.getMessage());
            assertEquals(0, storage.rowCount(), "the row that fitted is not kept either");
            assertEquals(0, storage.pageCount());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
            storage.close();
        }
    }

    @Test
    void outOfMemoryLeavesTheTableAsItWas() {
        MemoryManager memory = new MemoryManager(8 * 4096);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 2)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 50));
            int pagesBefore = storage.pageCount();
            int lastSlots = storage.pageRowSlots(pagesBefore - 1);
            long bytesBefore = memory.allocatedBytes(MemoryTag.PAGES);
            ParallaxException error = assertThrows(ParallaxException.class, () -> storage.append(batchOf(ALL_TYPES, 50, 5000)));
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(50, storage.rowCount());
            assertEquals(pagesBefore, storage.pageCount());
            assertEquals(lastSlots, storage.pageRowSlots(pagesBefore - 1));
            assertEquals(bytesBefore, memory.allocatedBytes(MemoryTag.PAGES));
            List<Integer> seen = readAll(storage, ALL_TYPES, true);
            assertEquals(50, seen.size());
            // The table keeps working: the slots the failed append wrote are reused cleanly.
            storage.append(batchOf(ALL_TYPES, 50, 10));
            seen = readAll(storage, ALL_TYPES, true);
            assertEquals(60, seen.size());
            assertEquals(59, seen.getLast());
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void anAppendAbandonedByItsGuardLeavesNoNullOrDeathBehindInTheSlotsItWrote() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 1 << 16, 4)) {
            List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT);
            PagedTableStorage storage = new PagedTableStorage(types, allocator);
            // Slots 0..9, the text of row 9 NULL (so that readers consult the page's null bitmap).
            storage.append(rowsOf(types, 0, 10, 9));
            // Rows with NULL texts written to slots 10.. of the last page, then abandoned before publishing.
            assertThrows(IllegalStateException.class, () -> storage.appendAll(List.of(rowsOf(types, 10, 5, 10)), (batches, rowIds) -> {
                throw new IllegalStateException("abandoned");
            }));
            assertEquals(10, storage.rowCount());
            // The same slots again, without NULLs; then one row killed and more appended behind it.
            storage.append(rowsOf(types, 10, 5, -1));
            assertTrue(storage.delete(0, 12));
            storage.append(rowsOf(types, 15, 3, -1));
            Batch target = Batch.create(types, 32);
            int rows = storage.readPage(0, new int[] {0, 1}, target);
            assertEquals(17, rows);
            for (int position = 0; position < rows; position++) {
                long id = ((LongVector) target.column(0)).get(position);
                assertTrue(id != 12);
                assertEquals(id == 9, target.column(1).isNull(position), "row " + id);
                if (id != 9) {
                    assertEquals("row " + id, ((BytesVector) target.column(1)).getString(position));
                }
            }
            assertEquals(17, storage.rowCount());
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    /** Rows (id, 'row id') for ids from .. from+count, the text NULL from id {@code nullFrom} on (-1: none). */
    private static Batch rowsOf(List<DataType> types, int from, int count, int nullFrom) {
        Batch batch = Batch.create(types, count);
        for (int index = 0; index < count; index++) {
            int id = from + index;
            ((LongVector) batch.column(0)).set(index, id);
            if (nullFrom >= 0 && id >= nullFrom) {
                batch.column(1).setNull(index);
            } else {
                ((BytesVector) batch.column(1)).set(index, bytes("row " + id));
            }
        }
        batch.setRowCount(count);
        return batch;
    }

    @Test
    void readersNeverSeeTornRowsWhileAWriterAppends() throws InterruptedException {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 8192)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    long lastTotal = 0;
                    while (lastTotal < 3000) {
                        // Pages read later may have grown meanwhile, so a pass can skip rows appended to
                        // pages it already read; what it must never see is a half-written row (assertRow)
                        // or a row out of order.
                        List<Integer> seen = readAll(storage, ALL_TYPES, true);
                        for (int index = 1; index < seen.size(); index++) {
                            assertTrue(seen.get(index) > seen.get(index - 1), "rows in order");
                        }
                        lastTotal = seen.size();
                    }
                } catch (Throwable error) {
                    failure.set(error);
                }
            });
            reader.start();
            for (int from = 0; from < 3000; from += 30) {
                storage.append(batchOf(ALL_TYPES, from, 30));
            }
            reader.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    /** Reads every row id of {@code expected} (test index by row id) with readPublishedRow and checks the row. */
    private static void assertPointReads(PagedTableStorage storage, java.util.Map<Long, Integer> expected) {
        Batch target = Batch.create(ALL_TYPES, 1);
        for (var entry : expected.entrySet()) {
            assertTrue(storage.readPublishedRow(entry.getKey(), ALL_COLUMNS, target), "row id " + entry.getKey());
            assertEquals(1, target.rowCount());
            assertRow(target, 0, entry.getValue());
        }
    }

    /** Row ids by test index (column 7 minus 9000) of every live row, from a scan. */
    private static java.util.Map<Long, Integer> rowIdsOfLiveRows(PagedTableStorage storage) {
        java.util.Map<Long, Integer> rowIds = new java.util.HashMap<>();
        Batch target = Batch.create(ALL_TYPES, 16);
        for (int page = 0; page < storage.pageCount(); page++) {
            int rows = storage.readPage(page, ALL_COLUMNS, target);
            for (int slot = 0, position = 0; slot < storage.pageRowSlots(page); slot++) {
                if (!storage.isDeleted(page, slot)) {
                    rowIds.put(RowIds.pack(page, slot), (int) (((LongVector) target.column(7)).get(position++) - 9000));
                }
            }
            assertEquals(rows, target.rowCount());
        }
        return rowIds;
    }

    /**
     * The point read (readPublishedRow), which finds a page by its address, reads every row right as
     * the page array grows, after pages are compacted (rows renumbered, emptied pages left as holes)
     * and after the whole table is rewritten onto new pages; slots past a page's published rows,
     * holes and pages past the table read as no row, and a negative page index is an error.
     */
    @Test
    void pointReadsFollowPagesAcrossGrowthCompactionAndRewrite() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 8)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            Batch target = Batch.create(ALL_TYPES, 1);
            assertFalse(storage.readPublishedRow(RowIds.pack(0, 0), ALL_COLUMNS, target));
            storage.append(batchOf(ALL_TYPES, 0, 300));
            storage.append(batchOf(ALL_TYPES, 300, 400));
            assertTrue(storage.pageCount() > 16, "pages " + storage.pageCount());
            java.util.Map<Long, Integer> rowIds = rowIdsOfLiveRows(storage);
            assertEquals(700, rowIds.size());
            assertPointReads(storage, rowIds);
            int lastPage = storage.pageCount() - 1;
            assertFalse(storage.readPublishedRow(RowIds.pack(lastPage, storage.pageRowSlots(lastPage)), ALL_COLUMNS, target));
            assertFalse(storage.readPublishedRow(RowIds.pack(lastPage + 1, 0), ALL_COLUMNS, target));
            assertThrows(IndexOutOfBoundsException.class, () -> storage.readPublishedRow(-1L << 32, ALL_COLUMNS, target));

            // Empty page 1 entirely and thin out page 2: compaction leaves a hole and renumbers.
            for (int slot = 0; slot < storage.pageRowSlots(1); slot++) {
                assertTrue(storage.delete(1, slot));
            }
            for (int slot = 0; slot < storage.pageRowSlots(2); slot += 2) {
                assertTrue(storage.delete(2, slot));
            }
            CompactionBuffers buffers = storage.compactionBuffers();
            assertTrue(storage.compactPage(1, buffers, null).pageFreed());
            storage.compactPage(2, buffers, null);
            storage.reclaimRetiredPages();
            assertFalse(storage.readPublishedRow(RowIds.pack(1, 0), ALL_COLUMNS, target));
            rowIds = rowIdsOfLiveRows(storage);
            assertPointReads(storage, rowIds);
            assertFalse(storage.readPublishedRow(RowIds.pack(2, storage.pageRowSlots(2)), ALL_COLUMNS, target));

            // VACUUM FULL: every row onto new pages, packed; the old pages go once readers are done.
            for (int slot = 1; slot < storage.pageRowSlots(5); slot += 3) {
                assertTrue(storage.delete(5, slot));
            }
            int liveRows = rowIdsOfLiveRows(storage).size();
            assertTrue(storage.rewriteCompactly(Batch.create(ALL_TYPES, 64), new TableRewriteListener() {
                @Override
                public void rowsMoved(Batch rows, long[] fromRowIds, long[] toRowIds, int count) {
                }

                @Override
                public void rowsRemoved(Batch rows, long[] removedRowIds, int count) {
                }
            }, 1000, pages -> { }, () -> false) != null);
            storage.reclaimRetiredPages();
            rowIds = rowIdsOfLiveRows(storage);
            assertEquals(liveRows, rowIds.size());
            assertPointReads(storage, rowIds);
            storage.close();
            assertFalse(storage.readPublishedRow(RowIds.pack(0, 0), ALL_COLUMNS, target));
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    /**
     * The point read holds a page's address, not its segment: close (DROP TABLE) must not give the
     * pages back (and unmap an emptied slab) while a read registered before it is still running.
     */
    @Test
    void closeWaitsForAReadInFlightBeforeFreeingPages() throws Exception {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 100));
            long pageBytes = memory.allocatedBytes(MemoryTag.PAGES);
            int read = storage.enterRead();
            Thread closer = new Thread(storage::close);
            closer.start();
            closer.join(200);
            assertTrue(closer.isAlive(), "close returned while a read was in flight");
            assertEquals(pageBytes, memory.allocatedBytes(MemoryTag.PAGES));
            storage.exitRead(read);
            closer.join();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
            assertFalse(storage.readPublishedRow(RowIds.pack(0, 0), ALL_COLUMNS, Batch.create(ALL_TYPES, 1)));
        }
    }

    /**
     * Closing a table while other threads read its rows by row id: every read that starts before the
     * close returns the right row or none, every read that starts after it returns none, and
     * nothing faults.
     */
    @Test
    void pointReadsRacingCloseSeeTheRowOrNone() throws Exception {
        for (int round = 0; round < 5; round++) {
            MemoryManager memory = new MemoryManager(1L << 30);
            try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
                PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
                storage.append(batchOf(ALL_TYPES, 0, 400));
                long[] rowIds = new long[400];
                int[] indexes = new int[400];
                int count = 0;
                for (var entry : rowIdsOfLiveRows(storage).entrySet()) {
                    rowIds[count] = entry.getKey();
                    indexes[count++] = entry.getValue();
                }
                java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(2);
                java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                List<Thread> readers = new ArrayList<>();
                for (int reader = 0; reader < 2; reader++) {
                    int start = reader * 131;
                    Thread thread = new Thread(() -> {
                        Batch target = Batch.create(ALL_TYPES, 1);
                        try {
                            for (int read = 0; ; read++) {
                                if (read == 50) {
                                    reading.countDown();
                                }
                                int at = (start + read) % rowIds.length;
                                boolean closedBefore = closed.get();
                                if (storage.readPublishedRow(rowIds[at], ALL_COLUMNS, target)) {
                                    assertFalse(closedBefore, "a row read after close returned");
                                    assertRow(target, 0, indexes[at]);
                                } else if (closedBefore) {
                                    return;
                                } else {
                                    assertTrue(closed.get() || storage.rowCount() == 0, "row " + indexes[at] + " missing before close");
                                }
                            }
                        } catch (Throwable thrown) {
                            failure.set(thrown);
                            reading.countDown();
                        }
                    });
                    thread.start();
                    readers.add(thread);
                }
                reading.await();
                storage.close();
                closed.set(true);
                for (Thread thread : readers) {
                    thread.join();
                }
                if (failure.get() != null) {
                    throw new AssertionError(failure.get());
                }
                assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
            }
        }
    }

    @Test
    void compactionOntoPagesAPreviousOwnerFilledKeepsEveryValueAndNull() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 64)) {
            // Pages a previous owner filled with ones, freed into slabs that stay (one page is kept):
            // compaction takes them without zeroing.
            List<NativePage> previous = new ArrayList<>();
            for (int index = 0; index < 40; index++) {
                NativePage page = allocator.allocate();
                page.segment().fill((byte) -1);
                previous.add(page);
            }
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 600));
            for (int index = 1; index < previous.size(); index++) {
                allocator.free(previous.get(index));
            }
            List<Integer> expected = new ArrayList<>();
            for (int page = 0; page < storage.pageCount(); page++) {
                int slots = storage.pageRowSlots(page);
                for (int slot = 0; slot < slots; slot += 3) {
                    assertTrue(storage.delete(page, slot));
                }
            }
            for (int i : readAll(storage, ALL_TYPES, true)) {
                expected.add(i);
            }
            CompactionBuffers buffers = storage.compactionBuffers();
            long removed = 0;
            for (int page = 0; page < storage.pageCount(); page++) {
                removed += storage.compactPage(page, buffers, null).removedRows();
            }
            storage.reclaimRetiredPages();
            assertEquals(600 - expected.size(), removed);
            assertEquals(expected, readAll(storage, ALL_TYPES, true));
            for (int page = 0; page < storage.pageCount(); page++) {
                assertEquals(0, storage.pageDeletedRows(page));
                for (int slot = 0; slot < storage.pageRowSlots(page); slot++) {
                    assertFalse(storage.isDeleted(page, slot));
                }
            }
            // Appends fill the compacted last page's free slots: they start live, with their own nulls.
            storage.append(batchOf(ALL_TYPES, 600, 50));
            for (int i = 600; i < 650; i++) {
                expected.add(i);
            }
            assertEquals(expected, readAll(storage, ALL_TYPES, true));
            assertEquals(expected.size(), storage.rowCount());
            storage.close();
            allocator.free(previous.getFirst());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    @Test
    void aPreparedCompactionIsRedoneWhenAWriterChangedTheTableSinceAndPublishedAsIsOtherwise() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 8)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 100));
            int lastPage = storage.pageCount() - 1;
            int lastSlots = storage.pageRowSlots(lastPage);
            assertTrue(storage.delete(0, 0));
            assertTrue(storage.delete(lastPage, 0));
            CompactionBuffers buffers = storage.compactionBuffers();

            // Nothing changed between prepare and publish: the copy is published (one row removed).
            PreparedCompaction untouched = storage.prepareCompaction(0, buffers);
            assertFalse(untouched.isDone());
            assertEquals(1, storage.publishCompaction(untouched, buffers, null).removedRows());

            // A delete on the page and an append to it after the copy was made: the publish compacts
            // afresh, so the row deleted meanwhile goes too and the appended rows stay.
            PreparedCompaction stale = storage.prepareCompaction(lastPage, buffers);
            assertFalse(stale.isDone());
            assertTrue(storage.delete(lastPage, 1));
            storage.append(batchOf(ALL_TYPES, 100, 1));
            PageCompaction redone = storage.publishCompaction(stale, buffers, null);
            assertEquals(2, redone.removedRows());
            storage.reclaimRetiredPages();

            List<Integer> seen = readAll(storage, ALL_TYPES, true);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i <= 100; i++) {
                expected.add(i);
            }
            int firstOfLastPage = 100 - lastSlots;
            expected.remove(Integer.valueOf(0));
            expected.remove(Integer.valueOf(firstOfLastPage));
            expected.remove(Integer.valueOf(firstOfLastPage + 1));
            assertEquals(expected, seen);
            assertEquals(0, storage.deadRowCount());
            assertEquals(expected.size(), storage.rowCount());
            // Nothing to do on a page without dead rows, nor past the end.
            assertTrue(storage.prepareCompaction(0, buffers).isDone());
            assertTrue(storage.prepareCompaction(storage.pageCount() + 3, buffers).isDone());
            storage.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    @Test
    void compactionCopiesPagesWrittenByManySmallAppendsAndKeepsTheDeadRowsASnapshotMaySee() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 8192, 16)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            // Appends of 1 to 6 rows: each page's heap holds many separately written runs of values,
            // so the compacted copy moves values both within runs and across their ends.
            int rows = 0;
            for (int size = 1; rows < 700; size = size % 6 + 1) {
                storage.append(batchOf(ALL_TYPES, rows, size));
                rows += size;
            }
            assertTrue(storage.pageCount() > 5, "pages: " + storage.pageCount());
            List<Integer> live = new ArrayList<>(readAll(storage, ALL_TYPES, true));
            deleteSlots(storage, live, 4, 1);
            CompactionBuffers buffers = storage.compactionBuffers();
            long removed = 0;
            long kept = 0;
            try (OpenSnapshot snapshot = storage.openSnapshot(SnapshotUse.SCAN)) {
                // Rows that die after the snapshot was taken stay, dead, with their deletion stamps.
                long lateDeaths = deleteSlots(storage, live, 5, 2);
                for (int page = 0; page < storage.pageCount(); page++) {
                    PageCompaction compaction = storage.compactPage(page, buffers, null);
                    removed += compaction.removedRows();
                    kept += compaction.deadRowsKept();
                }
                assertTrue(snapshot.isOpen());
                assertTrue(kept >= lateDeaths, "kept " + kept + " of " + lateDeaths);
                assertEquals(kept, storage.deadRowCount());
                assertEquals(kept, deletedSlots(storage));
                assertEquals(live, readAll(storage, ALL_TYPES, true));
            }
            for (int page = 0; page < storage.pageCount(); page++) {
                removed += storage.compactPage(page, buffers, null).removedRows();
            }
            storage.reclaimRetiredPages();
            assertEquals(rows - live.size(), removed);
            assertEquals(0, storage.deadRowCount());
            assertEquals(0, deletedSlots(storage));
            assertEquals(live, readAll(storage, ALL_TYPES, true));
            assertEquals(live.size(), storage.rowCount());
            storage.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    /**
     * A VACUUM participant writes each compacted copy over the page its previous compaction
     * replaced (still in its cache), once no reader can hold it; the spare page goes back to the
     * allocator when the participant's buffers close.
     */
    @Test
    void eachCompactedCopyIsWrittenOverThePageThePreviousCompactionReplaced() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 64)) {
            PagedTableStorage storage = new PagedTableStorage(ALL_TYPES, allocator);
            storage.append(batchOf(ALL_TYPES, 0, 300));
            assertTrue(storage.pageCount() >= 4, "pages: " + storage.pageCount());
            List<Integer> live = new ArrayList<>(readAll(storage, ALL_TYPES, true));
            deleteSlots(storage, live, 3, 0);
            int tablePages = allocator.pagesInUse();
            try (CompactionBuffers buffers = storage.compactionBuffers()) {
                assertEquals(0, storage.recycleRetiredPages(buffers), "nothing retired yet");
                long replaced = storage.pageOrHole(0).address();
                int slots = storage.pageRowSlots(0);
                assertEquals((slots + 2) / 3, storage.publishCompaction(storage.prepareCompaction(0, buffers), buffers, null)
                        .removedRows());
                assertEquals(1, storage.recycleRetiredPages(buffers));
                assertEquals(replaced, buffers.spare.segment().address());
                assertEquals(tablePages + 1, allocator.pagesInUse(), "the table's pages and the spare");
                for (int page = 1; page < storage.pageCount(); page++) {
                    long replacedNow = storage.pageOrHole(page).address();
                    assertTrue(storage.publishCompaction(storage.prepareCompaction(page, buffers), buffers, null).removedRows() > 0);
                    assertEquals(replaced, storage.pageOrHole(page).address(), "page " + page + " written over the page replaced before");
                    assertEquals(1, storage.recycleRetiredPages(buffers));
                    replaced = replacedNow;
                }
                assertEquals(tablePages + 1, allocator.pagesInUse());
                assertEquals(0, storage.retiredPageCount());
                assertEquals(0, storage.deadRowCount());
                assertEquals(live, readAll(storage, ALL_TYPES, true));
            }
            assertEquals(tablePages, allocator.pagesInUse(), "closing the buffers gave the spare back");
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    /** Deletes the live rows in slots {@code slot % modulus == remainder}; removes them from {@code live}; returns how many. */
    private static long deleteSlots(PagedTableStorage storage, List<Integer> live, int modulus, int remainder) {
        Batch target = Batch.create(ALL_TYPES, 16);
        long deleted = 0;
        for (int page = 0; page < storage.pageCount(); page++) {
            int slots = storage.pageRowSlots(page);
            storage.readSlots(page, identity(slots), slots, ALL_COLUMNS, target);
            for (int slot = 0; slot < slots; slot++) {
                if (slot % modulus == remainder && !storage.isDeleted(page, slot)) {
                    assertTrue(storage.delete(page, slot));
                    live.remove(Integer.valueOf((int) (((LongVector) target.column(7)).get(slot) - 9000)));
                    deleted++;
                }
            }
        }
        return deleted;
    }

    private static long deletedSlots(PagedTableStorage storage) {
        long deleted = 0;
        for (int page = 0; page < storage.pageCount(); page++) {
            for (int slot = 0; slot < storage.pageRowSlots(page); slot++) {
                if (storage.isDeleted(page, slot)) {
                    deleted++;
                }
            }
        }
        return deleted;
    }

    private static int[] identity(int count) {
        int[] slots = new int[count];
        for (int index = 0; index < count; index++) {
            slots[index] = index;
        }
        return slots;
    }

    /**
     * A statement publishing to several tables together holds their snapshots back: a reader's
     * snapshot taken meanwhile waits for the end of {@code publishTogether} and then shows the
     * published change (without the hold it would be taken at once, before the append).
     */
    @Test
    void heldSnapshotsWaitForTheEndOfAPublishTogetherAndThenShowItsChanges() throws Exception {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 512)) {
            PagedTableStorage first = new PagedTableStorage(ALL_TYPES, allocator);
            PagedTableStorage second = new PagedTableStorage(ALL_TYPES, allocator);
            AtomicReference<ScanSnapshot> taken = new AtomicReference<>();
            Thread reader = new Thread(() -> taken.set(second.snapshot()));
            long sequenceBefore = second.groupSequence();
            PagedTableStorage.publishTogether(List.of(first, second), () -> {
                first.holdSnapshots();
                second.holdSnapshots();
                assertEquals(sequenceBefore + 1, second.groupSequence());
                reader.start();
                try {
                    reader.join(200);
                } catch (InterruptedException interrupted) {
                    throw new AssertionError(interrupted);
                }
                assertTrue(reader.isAlive(), "the reader waits while the snapshots are held");
                second.append(batchOf(ALL_TYPES, 0, 10));
            }, null);
            reader.join();
            assertEquals(sequenceBefore + 2, second.groupSequence());
            assertEquals(1, taken.get().pageCount());
            assertEquals(10, taken.get().lastPageSlots());
            assertEquals(second.snapshot(), taken.get());
            first.close();
            second.close();
        }
    }
}
