package dev.parallax.engine.storage;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StagedPagesTest {
    private static final List<DataType> TYPES = List.of(DataType.INTEGER, DataType.TEXT, DataType.BIGINT);
    private static final int[] COLUMNS = {0, 1, 2};

    /** Rows (id, text or NULL for every 5th id, id * 3), ids from .. from+count. */
    private static Batch rows(int from, int count) {
        Batch batch = Batch.create(TYPES, count);
        for (int index = 0; index < count; index++) {
            int id = from + index;
            ((LongVector) batch.column(0)).set(index, id);
            if (id % 5 == 4) {
                batch.column(1).setNull(index);
            } else {
                ((BytesVector) batch.column(1)).set(index, ("text " + id + " " + "x".repeat(id % 23)).getBytes(StandardCharsets.UTF_8));
            }
            ((LongVector) batch.column(2)).set(index, id * 3L);
        }
        batch.setRowCount(count);
        return batch;
    }

    /** The ids a scan starting now reads, each row's values checked. */
    private static List<Integer> scan(PagedTableStorage storage) {
        ScanSnapshot snapshot = storage.snapshot();
        List<Integer> ids = new ArrayList<>();
        Batch target = Batch.create(TYPES, 64);
        int[] slots = new int[storage.pageSlotCapacity()];
        for (int page = 0; page < snapshot.pageCount(); page++) {
            int count = storage.readPage(page, COLUMNS, target, snapshot, slots);
            for (int index = 0; index < count; index++) {
                int position = target.position(index);
                int id = (int) ((LongVector) target.column(0)).get(position);
                assertEquals(id % 5 == 4, target.column(1).isNull(position), "null of row " + id);
                if (id % 5 != 4) {
                    assertEquals("text " + id + " " + "x".repeat(id % 23), ((BytesVector) target.column(1)).getString(position));
                }
                assertEquals(id * 3L, ((LongVector) target.column(2)).get(position));
                ids.add(id);
            }
        }
        return ids;
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> ids = new ArrayList<>();
        for (int id = from; id < to; id++) {
            ids.add(id);
        }
        return ids;
    }

    @Test
    void stagedRowsAppearTogetherAfterTheTablesRowsInStageOrder() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 4)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            storage.append(rows(0, 10));
            StagedPages first = storage.stage();
            StagedPages second = storage.stage();
            // Interleaved writes, as two participants would do them.
            first.write(rows(10, 300));
            second.write(rows(1000, 250));
            first.write(rows(310, 90));
            assertEquals(range(0, 10), scan(storage), "nothing staged is visible before the publish");
            assertEquals(10, storage.rowCount());
            storage.publishStaged(List.of(first, second));
            List<Integer> expected = range(0, 400);
            expected.addAll(range(1000, 1250));
            assertEquals(expected, scan(storage));
            assertEquals(650, storage.rowCount());
            // Point reads find the staged pages by row id (the page addresses were published with them).
            Batch point = Batch.create(TYPES, 1);
            assertTrue(storage.readPublishedRow(dev.parallax.engine.index.RowIds.pack(storage.pageCount() - 1, 0), COLUMNS, point));
            assertEquals(expected.get(expected.size() - (storage.pageRowSlots(storage.pageCount() - 1))),
                    (int) ((LongVector) point.column(0)).get(0));
            assertTrue(storage.pageCount() > 10, "small pages force many: " + storage.pageCount());
            // Closing after the publish frees nothing: the pages are the table's.
            first.close();
            second.close();
            assertEquals(expected, scan(storage));
            // Later appends continue on the last staged page.
            int pages = storage.pageCount();
            storage.append(rows(2000, 1));
            assertEquals(pages, storage.pageCount());
            expected.add(2000);
            assertEquals(expected, scan(storage));
            assertEquals((long) storage.pageCount() * (4096 + PageAllocator.PAGE_STAGGER),
                    memory.allocatedBytes(MemoryTag.PAGES) - freePagesBytes(allocator));
            storage.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    /** Bytes of the slabs' pages that are not handed out (each with the stagger that follows it). */
    private static long freePagesBytes(PageAllocator allocator) {
        return ((long) allocator.slabCount() * allocator.pagesPerSlab() - allocator.pagesInUse())
                * (allocator.pageSizeBytes() + PageAllocator.PAGE_STAGGER);
    }

    @Test
    void valuesReadFromAPageThatSeveralAppendsFilledAreWrittenRunByRun() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 1 << 16, 4)) {
            List<DataType> types = List.of(DataType.TEXT, DataType.INTEGER);
            PagedTableStorage source = new PagedTableStorage(types, allocator);
            // Three appends onto one page: each one's values lie below the previous one's in its heap.
            for (int append = 0; append < 3; append++) {
                Batch batch = Batch.create(types, 5);
                for (int index = 0; index < 5; index++) {
                    int id = append * 5 + index;
                    ((BytesVector) batch.column(0)).set(index, ("value " + id + "x".repeat(id)).getBytes(StandardCharsets.UTF_8));
                    ((LongVector) batch.column(1)).set(index, id);
                }
                batch.setRowCount(5);
                source.append(batch);
            }
            assertEquals(1, source.pageCount());
            Batch read = Batch.create(types, 16);
            assertEquals(15, source.readPage(0, new int[] {0, 1}, read));
            PagedTableStorage target = new PagedTableStorage(types, allocator);
            try (StagedPages stage = target.stage()) {
                stage.write(read);
                stage.write(read);
                target.publishStaged(List.of(stage));
            }
            Batch back = Batch.create(types, 32);
            assertEquals(30, target.readPage(0, new int[] {0, 1}, back));
            for (int position = 0; position < 30; position++) {
                int id = position % 15;
                assertEquals(id, ((LongVector) back.column(1)).get(position));
                assertEquals("value " + id + "x".repeat(id), ((BytesVector) back.column(0)).getString(position));
            }
            source.close();
            target.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void closingWithoutPublishingFreesThePagesAndLeavesTheTableAsItWas() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 4)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            storage.append(rows(0, 10));
            int pagesInUse = allocator.pagesInUse();
            try (StagedPages stage = storage.stage()) {
                stage.write(rows(10, 500));
                assertTrue(allocator.pagesInUse() > pagesInUse);
            }
            assertEquals(pagesInUse, allocator.pagesInUse());
            assertEquals(range(0, 10), scan(storage));
            // Pages reused from the abandoned stage keep its bytes (they are not zeroed): rows with
            // NULLs in other slots staged onto them read back exactly, and so do rows appended later.
            try (StagedPages stage = storage.stage()) {
                stage.write(rows(13, 500));
                storage.publishStaged(List.of(stage));
            }
            List<Integer> expected = range(0, 10);
            expected.addAll(range(13, 513));
            assertEquals(expected, scan(storage));
            storage.append(rows(515, 2));
            expected.addAll(range(515, 517));
            assertEquals(expected, scan(storage));
            StagedPages published = storage.stage();
            published.write(rows(520, 1));
            storage.publishStaged(List.of(published));
            assertThrows(IllegalArgumentException.class, () -> storage.publishStaged(List.of(published)));
            assertThrows(IllegalStateException.class, () -> published.write(rows(521, 1)));
            expected.add(520);
            assertEquals(expected, scan(storage));
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void outOfMemoryMidwayPublishesNothingAndTheClosedStageGivesEveryPageBack() {
        MemoryManager memory = new MemoryManager(8 * 4096);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 2)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            storage.append(rows(0, 20));
            long bytesBefore = memory.allocatedBytes(MemoryTag.PAGES);
            StagedPages stage = storage.stage();
            ParallaxException error = assertThrows(ParallaxException.class, () -> stage.write(rows(20, 5000)));
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            stage.close();
            assertEquals(bytesBefore, memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(range(0, 20), scan(storage));
            assertEquals(20, storage.rowCount());
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void aRowLargerThanAnEmptyPageIsRejected() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 4)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            Batch batch = rows(0, 2);
            ((BytesVector) batch.column(1)).set(1, new byte[5000]);
            try (StagedPages stage = storage.stage()) {
                ParallaxException error = assertThrows(ParallaxException.class, () -> stage.write(batch));
                assertEquals(SqlState.PROGRAM_LIMIT_EXCEEDED, error.state());
            }
            assertEquals(0, storage.rowCount());
            assertEquals(0, allocator.pagesInUse());
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void aClosedTableRefusesThePublishAndTheStageStillFreesItsPages() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 4)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            StagedPages stage = storage.stage();
            stage.write(rows(0, 100));
            storage.close();
            assertThrows(ParallaxException.class, () -> storage.publishStaged(List.of(stage)));
            stage.close();
            assertEquals(0, allocator.pagesInUse());
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void aConcurrentScanSeesEachRowExactlyOnceAndEitherNoneOrAllOfAPublish() throws InterruptedException {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 4096, 8)) {
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            int publishes = 40;
            int rowsPerStage = 150;
            Thread reader = new Thread(() -> {
                try {
                    while (writing.get()) {
                        List<Integer> ids = scan(storage);
                        Set<Integer> distinct = new HashSet<>(ids);
                        assertEquals(ids.size(), distinct.size(), "a row seen twice");
                        // Each publish adds two stages' rows: a scan sees whole publishes only.
                        assertEquals(0, ids.size() % (2 * rowsPerStage), "a publish seen in part: " + ids.size());
                        for (int id = 0; id < ids.size() / 2; id++) {
                            assertTrue(distinct.contains(id) && distinct.contains(100_000 + id), "row " + id + " missing");
                        }
                    }
                } catch (Throwable error) {
                    failure.set(error);
                }
            });
            reader.start();
            for (int publish = 0; publish < publishes; publish++) {
                try (StagedPages first = storage.stage(); StagedPages second = storage.stage()) {
                    first.write(rows(publish * rowsPerStage, rowsPerStage));
                    second.write(rows(100_000 + publish * rowsPerStage, rowsPerStage));
                    storage.publishStaged(List.of(first, second));
                }
            }
            writing.set(false);
            reader.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            List<Integer> all = scan(storage);
            assertEquals(2 * publishes * rowsPerStage, all.size());
            assertFalse(all.isEmpty());
            storage.close();
        }
        assertEquals(0, memory.allocatedBytes());
    }
}
