package dev.parallax.engine.storage;

import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapPositionHintsTest {
    private static final int PAGE = 1 << 17;

    @Test
    void noHintAndASingleObservationPredictNothing() {
        assertEquals(-1, HeapPositionHints.predictedOffset(0, 5));
        long observed = HeapPositionHints.learned(0, 7, 5000, PAGE);
        assertTrue(observed < 0, "an observation");
        assertEquals(-1, HeapPositionHints.predictedOffset(observed, 7));
        // The same slot again cannot give a stride: still one observation, the newer one.
        long again = HeapPositionHints.learned(observed, 7, 5040, PAGE);
        assertEquals(-1, HeapPositionHints.predictedOffset(again, 8));
        assertEquals(5104, HeapPositionHints.predictedOffset(HeapPositionHints.learned(again, 8, 5072, PAGE), 9));
    }

    /** A page written in one batch: values ascend from the heap start, 32 bytes each. */
    @Test
    void twoReadsOfAnAscendingPagePredictEveryRow() {
        long hint = HeapPositionHints.learned(0, 300, 1000 + 300 * 32, PAGE);
        hint = HeapPositionHints.learned(hint, 7, 1000 + 7 * 32, PAGE);
        for (int row = 0; row < 2000; row++) {
            assertEquals(1000 + row * 32, HeapPositionHints.predictedOffset(hint, row), "row " + row);
        }
        assertEquals(32, HeapPositionHints.predictedLength(hint));
    }

    /** A page of rows appended one at a time: values descend from the page's end, 40 bytes a row. */
    @Test
    void twoReadsOfADescendingPagePredictEveryRow() {
        long hint = HeapPositionHints.learned(0, 10, PAGE - 11 * 40, PAGE);
        hint = HeapPositionHints.learned(hint, 1500, PAGE - 1501 * 40, PAGE);
        for (int row = 0; row < 2000; row++) {
            assertEquals(PAGE - (row + 1) * 40, HeapPositionHints.predictedOffset(hint, row), "row " + row);
            assertTrue(HeapPositionHints.onPredictedLine(HeapPositionHints.predictedOffset(hint, row), PAGE - (row + 1) * 40));
        }
        assertEquals(40, HeapPositionHints.predictedLength(hint));
    }

    /** Values of uneven lengths (30 and 34 bytes in turn): the guess stays within a few bytes. */
    @Test
    void unevenLengthsArePredictedClosely() {
        int[] offsets = new int[1001];
        offsets[0] = 2000;
        for (int row = 1; row <= 1000; row++) {
            offsets[row] = offsets[row - 1] + (row % 2 == 0 ? 30 : 34);
        }
        long hint = HeapPositionHints.learned(HeapPositionHints.learned(0, 100, offsets[100], PAGE), 900, offsets[900], PAGE);
        for (int row = 0; row <= 1000; row++) {
            assertTrue(Math.abs(HeapPositionHints.predictedOffset(hint, row) - offsets[row]) <= 4, "row " + row);
        }
    }

    /** Slots past 16 bits and offsets past 17 (pages of a megabyte and more) keep their precision. */
    @Test
    void largeSlotsAndOffsets() {
        int page = 1 << 24;
        long hint = HeapPositionHints.learned(0, 70_000, 100 + 70_000 * 12, page);
        hint = HeapPositionHints.learned(hint, 90_000, 100 + 90_000 * 12, page);
        assertEquals(100 + 123_456 * 12, HeapPositionHints.predictedOffset(hint, 123_456));
    }

    /** A line that would start outside the page is not kept: the newer observation is. */
    @Test
    void aLineOutsideThePageIsNotKept() {
        long hint = HeapPositionHints.learned(HeapPositionHints.learned(0, 1000, 100, PAGE), 1001, 50_000, PAGE);
        assertEquals(-1, HeapPositionHints.predictedOffset(hint, 1002));
    }

    @Test
    void hintsGrowAndStopAtTheirLimit() {
        long[] hints = HeapPositionHints.with(HeapPositionHints.NONE, 40, 7);
        assertEquals(7, HeapPositionHints.hint(hints, 40));
        assertEquals(0, HeapPositionHints.hint(hints, 39));
        assertEquals(0, HeapPositionHints.hint(hints, 10_000));
        assertSame(hints, HeapPositionHints.with(hints, 3, 9));
        assertEquals(9, hints[3]);
        long[] capped = HeapPositionHints.with(hints, HeapPositionHints.MAX_HINTS, 5);
        assertSame(hints, capped);
        assertEquals(0, HeapPositionHints.hint(capped, HeapPositionHints.MAX_HINTS));
    }

    /**
     * On real pages: a page written by one batch (ascending) and a page of rows appended one at a
     * time (descending), with two text columns. Once two rows of a page were read, every row's
     * value is on its predicted line: reading all of them leaves the hints as they were (a read
     * whose value is elsewhere learns afresh). The values read are right throughout.
     */
    @Test
    void pointReadsLearnBulkAndAppendedPages() {
        List<DataType> types = List.of(DataType.INTEGER, DataType.TEXT, DataType.TEXT);
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE)) {
            PagedTableStorage bulk = new PagedTableStorage(types, allocator);
            bulk.append(rows(types, 0, 1000));
            PagedTableStorage appended = new PagedTableStorage(types, allocator);
            for (int row = 0; row < 1000; row++) {
                appended.append(rows(types, row, 1));
            }
            for (PagedTableStorage storage : List.of(bulk, appended)) {
                assertEquals(1, storage.pageCount());
                Batch target = Batch.create(types, 1);
                int[] columns = {0, 1, 2};
                read(storage, 3, columns, target);
                read(storage, 700, columns, target);
                long first = storage.heapHint(0, 1);
                long second = storage.heapHint(0, 2);
                assertTrue(first > 0 && second > 0, "hints learned");
                for (int row = 0; row < 1000; row++) {
                    read(storage, (row * 7919) % 1000, columns, target);
                }
                assertEquals(first, storage.heapHint(0, 1));
                assertEquals(second, storage.heapHint(0, 2));
                // A read of the second text alone uses (and keeps) the same hint of its column.
                read(storage, 500, new int[] {2}, Batch.create(List.of(DataType.TEXT), 1));
                assertEquals(second, storage.heapHint(0, 2));
                assertNotEquals(0, storage.heapHint(0, 2));
                storage.close();
            }
        }
        assertEquals(0, memory.allocatedBytes());
    }

    /** Reads row {@code row} of page 0 of {@code storage} and checks its values. */
    private static void read(PagedTableStorage storage, int row, int[] columns, Batch target) {
        assertTrue(storage.readPublishedRow(RowIds.pack(0, row), columns, target));
        for (int index = 0; index < columns.length; index++) {
            String expected = switch (columns[index]) {
                case 0 -> null;
                case 1 -> first(row);
                default -> second(row);
            };
            if (expected == null) {
                assertEquals(row, ((LongVector) target.column(index)).get(0));
            } else {
                assertEquals(expected, ((BytesVector) target.column(index)).getString(0));
            }
        }
    }

    private static String first(int row) {
        return String.format("%032x", row * 2_654_435_761L);
    }

    private static String second(int row) {
        return "second " + String.format("%05d", row);
    }

    private static Batch rows(List<DataType> types, int from, int count) {
        Batch batch = Batch.create(types, count);
        for (int index = 0; index < count; index++) {
            int row = from + index;
            ((LongVector) batch.column(0)).set(index, row);
            ((BytesVector) batch.column(1)).set(index, first(row).getBytes(StandardCharsets.UTF_8));
            ((BytesVector) batch.column(2)).set(index, second(row).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(count);
        return batch;
    }
}
