package dev.parallax.engine.sort;

import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.util.Arrays;
import java.util.List;

/**
 * Keeps the first N rows of a sort (ORDER BY ... LIMIT N) in a bounded max-heap, as PostgreSQL's
 * top-N heapsort: a row is stored only while it beats the worst row kept, so memory stays
 * proportional to N. Rows are stored in arrival order and equal keys rank by arrival, which makes
 * the result the first N rows of the stable full sort.
 */
final class TopNHeap {
    private final List<DataType> columnTypes;
    private final BatchRowComparator comparator;
    private final int limit;
    private final long rowOverheadBytes;
    private Batch rows;
    private int rowCount;
    /** Row numbers in {@link #rows}, the worst kept row at the root. */
    private int[] heap;
    private int heapSize;

    TopNHeap(List<DataType> columnTypes, List<SortKey> keys, int limit, long rowOverheadBytes) {
        this.columnTypes = columnTypes;
        this.comparator = new BatchRowComparator(keys, columnTypes);
        this.limit = limit;
        this.rowOverheadBytes = rowOverheadBytes;
        this.rows = BatchCopier.emptyLike(columnTypes, Math.min(limit, Batch.DEFAULT_CAPACITY));
        this.heap = new int[Math.min(limit, Batch.DEFAULT_CAPACITY)];
    }

    /** Offers the live rows of {@code batch}. */
    void add(Batch batch) {
        int count = batch.selectedCount();
        for (int index = 0; index < count; index++) {
            int position = batch.position(index);
            if (heapSize < limit) {
                int row = append(batch, position);
                if (heapSize == heap.length) {
                    heap = Arrays.copyOf(heap, Math.min(limit, heap.length * 2));
                }
                heap[heapSize++] = row;
                siftUp(heapSize - 1);
            } else if (comparator.compare(batch, position, rows, heap[0]) < 0) {
                // Strictly better only: on equal keys the earlier row stays, as in the stable sort.
                heap[0] = append(batch, position);
                siftDown(0);
            }
            if (rowCount >= compactionThreshold()) {
                compact();
            }
        }
    }

    /** Rows replaced in the heap stay stored until compaction; allow as many as the heap holds. */
    private int compactionThreshold() {
        return Math.max(2 * limit, limit + Batch.DEFAULT_CAPACITY);
    }

    private int append(Batch batch, int position) {
        rows.ensureCapacity(rowCount + 1);
        for (int column = 0; column < columnTypes.size(); column++) {
            rows.column(column).copyFrom(batch.column(column), position, rowCount);
        }
        return rowCount++;
    }

    /** Drops replaced rows: keeps the heap's rows, in arrival order, numbered from 0. */
    void compact() {
        int[] kept = Arrays.copyOf(heap, heapSize);
        Arrays.sort(kept);
        Batch compacted = BatchCopier.emptyLike(columnTypes, Math.max(1, heapSize));
        BatchCopier.gather(rows, kept, 0, heapSize, compacted);
        rows = compacted;
        rowCount = heapSize;
        for (int row = 0; row < heapSize; row++) {
            heap[row] = row;
        }
        for (int index = heapSize / 2 - 1; index >= 0; index--) {
            siftDown(index);
        }
    }

    /** The stored rows (positions {@code 0..rowCount()-1}, no selection); after {@link #compact()}, exactly the kept ones. */
    Batch rows() {
        return rows;
    }

    int rowCount() {
        return rowCount;
    }

    /** Estimated bytes held, on the same scale as the sorter's buffer. */
    long estimatedBytes() {
        long bytes = (long) rowCount * rowOverheadBytes + (long) heap.length * Integer.BYTES;
        for (ColumnVector column : rows.columns()) {
            if (column instanceof BytesVector text) {
                bytes += text.usedBytes();
            }
        }
        return bytes;
    }

    /** True when row {@code left} ranks after row {@code right}: worse key, or equal key and later arrival. */
    private boolean after(int left, int right) {
        int order = comparator.compare(rows, left, rows, right);
        return order > 0 || (order == 0 && left > right);
    }

    private void siftUp(int start) {
        int index = start;
        int row = heap[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            if (!after(row, heap[parent])) {
                break;
            }
            heap[index] = heap[parent];
            index = parent;
        }
        heap[index] = row;
    }

    private void siftDown(int start) {
        int index = start;
        int row = heap[index];
        while (true) {
            int child = 2 * index + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && after(heap[child + 1], heap[child])) {
                child++;
            }
            if (!after(heap[child], row)) {
                break;
            }
            heap[index] = heap[child];
            index = child;
        }
        heap[index] = row;
    }
}
