package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge of sorted streams against a reference sort: interleaved and disjoint inputs, all-equal
 * keys, NULLs, DESC, several keys, selections on the input batches and a row limit. The test
 * streams clobber each batch they returned as soon as they are asked for the next one, so a merge
 * that reads (or returns) a batch after fetching its successor gives wrong rows.
 */
class SortedStreamMergerTest {
    private static final List<DataType> TYPES = List.of(DataType.TEXT, DataType.BIGINT, DataType.BIGINT);

    @Test
    void streamsThatDoNotOverlapAreReturnedBatchByBatchWithoutACopy() {
        List<SortKey> keys = List.of(new SortKey(1, false, false));
        List<Object[]> first = new ArrayList<>();
        List<Object[]> second = new ArrayList<>();
        for (long row = 0; row < 5000; row++) {
            first.add(new Object[] {"a" + row, row, row});
            second.add(new Object[] {"b" + row, 10_000 + row, row});
        }
        List<TestStream> streams = List.of(new TestStream(second, 700, false), new TestStream(first, 900, true));
        Map<Batch, Boolean> inputBatches = new IdentityHashMap<>();
        List<List<Object>> merged = new ArrayList<>();
        int passedThrough = 0;
        try (SortedStreamMerger merger = new SortedStreamMerger(TYPES, keys, streams)) {
            Batch batch;
            while ((batch = merger.next()) != null) {
                streams.forEach(stream -> inputBatches.put(stream.lastReturned, true));
                passedThrough += inputBatches.containsKey(batch) ? 1 : 0;
                merged.addAll(rows(batch));
            }
        }
        List<Object[]> all = live(first, 900, true);
        all.addAll(second);
        assertEquals(SortRows.reference(TYPES, keys, -1, all), merged);
        assertEquals(5000 / 900 + 1 + 5000 / 700 + 1, passedThrough, "every input batch is returned as is");
    }

    @Test
    void allEqualKeysComeOutInStreamOrderThroughEveryPath() {
        for (boolean descending : new boolean[] {false, true}) {
            List<SortKey> keys = List.of(new SortKey(0, descending, !descending));
            List<List<Object[]>> parts = new ArrayList<>();
            for (int part = 0; part < 3; part++) {
                List<Object[]> rows = new ArrayList<>();
                for (long row = 0; row < 3000; row++) {
                    // One repeated 60-byte text, and a stretch of NULLs in the middle stream.
                    String key = part == 1 && row >= 1000 && row < 1500 ? null : "x".repeat(60);
                    rows.add(new Object[] {key, (long) part, row});
                }
                rows.sort(SortRows.referenceOrder(TYPES, keys));
                parts.add(rows);
            }
            assertMergeEqualsReference(parts, keys, -1, new int[] {4096, 333, 1000}, descending ? "DESC" : "ASC");
            assertMergeEqualsReference(parts, keys, 5_555, new int[] {4096, 333, 1000}, "limit");
        }
    }

    @Test
    void randomStreamsMergeExactlyAsTheReferenceSort() {
        Random random = new Random(29);
        for (int trial = 0; trial < 200; trial++) {
            List<SortKey> keys = switch (trial % 4) {
                case 0 -> List.of(new SortKey(0, false, false));
                case 1 -> List.of(new SortKey(0, true, true));
                case 2 -> List.of(new SortKey(1, false, true), new SortKey(0, true, false));
                default -> List.of(new SortKey(1, true, false), new SortKey(2, false, false));
            };
            int streamCount = 1 + random.nextInt(4);
            List<List<Object[]>> parts = new ArrayList<>();
            int[] batchRows = new int[streamCount];
            long base = 0;
            for (int stream = 0; stream < streamCount; stream++) {
                // Narrow key ranges give ties and long wins; shifted ranges give disjoint streams.
                int keyRange = 1 + random.nextInt(trial % 3 == 0 ? 3 : 500);
                long shift = random.nextBoolean() ? base : 0;
                List<Object[]> rows = new ArrayList<>();
                int count = random.nextInt(3000);
                for (int row = 0; row < count; row++) {
                    String text = random.nextInt(20) == 0 ? null : "k" + "same-prefix-".repeat(random.nextInt(2)) + random.nextInt(keyRange);
                    Long number = random.nextInt(15) == 0 ? null : shift + random.nextInt(keyRange);
                    rows.add(new Object[] {text, number, (long) stream * 10_000 + row});
                }
                rows.sort(SortRows.referenceOrder(TYPES, keys));
                base += keyRange;
                parts.add(rows);
                batchRows[stream] = 1 + random.nextInt(1200);
            }
            long limit = random.nextInt(4) == 0 ? random.nextInt(4000) : -1;
            assertMergeEqualsReference(parts, keys, limit, batchRows, "trial " + trial);
        }
    }

    private static void assertMergeEqualsReference(List<List<Object[]>> parts, List<SortKey> keys, long limit, int[] batchRows, String message) {
        for (boolean withSelections : new boolean[] {false, true}) {
            List<TestStream> streams = new ArrayList<>();
            List<Object[]> live = new ArrayList<>();
            for (int stream = 0; stream < parts.size(); stream++) {
                streams.add(new TestStream(parts.get(stream), batchRows[stream], withSelections));
                live.addAll(live(parts.get(stream), batchRows[stream], withSelections));
            }
            List<List<Object>> merged = new ArrayList<>();
            try (SortedStreamMerger merger = new SortedStreamMerger(TYPES, keys, streams, limit < 0 ? Long.MAX_VALUE : limit, null)) {
                Batch batch;
                while ((batch = merger.next()) != null) {
                    merged.addAll(rows(batch));
                }
            }
            // Equal keys keep stream order (stream 0 first), which the stable reference sort of the
            // streams' rows concatenated in stream order gives too.
            assertEquals(SortRows.reference(TYPES, keys, limit, live), merged, message + (withSelections ? ", with selections" : ""));
            streams.forEach(stream -> assertTrue(stream.closed, "inputs are closed"));
        }
    }

    /** The rows a {@link TestStream} leaves live: with selections, every third row of each batch is filtered out. */
    private static List<Object[]> live(List<Object[]> rows, int batchRows, boolean withSelections) {
        List<Object[]> live = new ArrayList<>();
        for (int row = 0; row < rows.size(); row++) {
            if (!withSelections || (row % batchRows) % 3 != 1) {
                live.add(rows.get(row));
            }
        }
        return live;
    }

    private static List<List<Object>> rows(Batch batch) {
        List<List<Object>> rows = new ArrayList<>();
        for (int index = 0; index < batch.selectedCount(); index++) {
            int position = batch.position(index);
            List<Object> row = new ArrayList<>();
            for (int column = 0; column < batch.columnCount(); column++) {
                row.add(SortRows.get(batch.column(column), position));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Sorted rows in batches of a fixed size; a returned batch is overwritten with junk when the next is asked for. */
    private static final class TestStream implements SortedOutput {
        private final List<Batch> batches;
        private int nextBatch;
        Batch lastReturned;
        boolean closed;

        TestStream(List<Object[]> rows, int batchRows, boolean withSelections) {
            batches = SortRows.toBatches(TYPES, rows, batchRows);
            if (withSelections) {
                for (Batch batch : batches) {
                    int[] selection = new int[batch.rowCount()];
                    int count = 0;
                    for (int position = 0; position < batch.rowCount(); position++) {
                        if (position % 3 != 1) {
                            selection[count++] = position;
                        }
                    }
                    batch.setSelection(selection, count);
                }
            }
        }

        @Override
        public Batch next() {
            if (lastReturned != null) {
                clobber(lastReturned);
            }
            lastReturned = nextBatch < batches.size() ? batches.get(nextBatch++) : null;
            return lastReturned;
        }

        private static void clobber(Batch batch) {
            for (ColumnVector column : batch.columns()) {
                switch (column) {
                    case LongVector longs -> Arrays.fill(longs.values(), -7);
                    case BytesVector bytes -> Arrays.fill(bytes.data(), (byte) '?');
                    default -> throw new AssertionError(column);
                }
                Arrays.fill(column.nulls(), false);
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
