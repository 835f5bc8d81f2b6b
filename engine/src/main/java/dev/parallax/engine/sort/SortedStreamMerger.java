package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.List;
import java.util.Objects;

/**
 * Merges streams that are each already in sort order into one stream in sort order: a binary
 * heap of the streams keyed by their current row. Rows with equal keys come out in stream order
 * (stream 0 first), so merging the runs of one sort keeps it stable. Used for the runs of an
 * external sort and by Gather Merge for the workers' sorted outputs. Not thread-safe: one
 * consumer pulls, and it pulls each input from its own thread.
 */
public final class SortedStreamMerger implements SortedOutput {
    private final List<? extends SortedOutput> inputs;
    private final BatchRowComparator comparator;
    private final Batch[] current;
    private final int[] currentIndex;
    private final int[] heap;
    private final Batch output;
    private final Runnable onClose;
    private long remainingRows;
    private int heapSize;
    private boolean started;
    private boolean closed;

    /** Merges {@code inputs} (each sorted by {@code keys}, all with {@code columnTypes}); takes ownership of them. */
    public SortedStreamMerger(List<DataType> columnTypes, List<SortKey> keys, List<? extends SortedOutput> inputs) {
        this(columnTypes, keys, inputs, Long.MAX_VALUE, null);
    }

    SortedStreamMerger(List<DataType> columnTypes, List<SortKey> keys, List<? extends SortedOutput> inputs,
                       long maximumRows, Runnable onClose) {
        Objects.requireNonNull(columnTypes, "columnTypes");
        Objects.requireNonNull(keys, "keys");
        this.inputs = List.copyOf(inputs);
        this.comparator = new BatchRowComparator(keys, columnTypes);
        this.current = new Batch[inputs.size()];
        this.currentIndex = new int[inputs.size()];
        this.heap = new int[inputs.size()];
        this.output = Batch.create(columnTypes, Batch.DEFAULT_CAPACITY);
        this.remainingRows = maximumRows;
        this.onClose = onClose;
    }

    @Override
    public Batch next() {
        if (closed) {
            return null;
        }
        if (!started) {
            start();
        }
        if (heapSize == 0 || remainingRows == 0) {
            finishStreams();
            return null;
        }
        output.reset();
        int capacity = (int) Math.min(Batch.DEFAULT_CAPACITY, remainingRows);
        ColumnVector[] targetColumns = output.columns();
        int count = 0;
        while (count < capacity && heapSize > 0) {
            int stream = heap[0];
            Batch batch = current[stream];
            int position = batch.position(currentIndex[stream]);
            for (int column = 0; column < targetColumns.length; column++) {
                targetColumns[column].copyFrom(batch.column(column), position, count);
            }
            count++;
            if (advance(stream)) {
                siftDown(0);
            } else {
                heap[0] = heap[--heapSize];
                if (heapSize > 0) {
                    siftDown(0);
                }
            }
        }
        remainingRows -= count;
        output.setRowCount(count);
        return output;
    }

    private void start() {
        started = true;
        for (int stream = 0; stream < inputs.size(); stream++) {
            currentIndex[stream] = -1;
            if (advance(stream)) {
                heap[heapSize++] = stream;
            }
        }
        for (int index = heapSize / 2 - 1; index >= 0; index--) {
            siftDown(index);
        }
    }

    /** Moves a stream to its next live row, fetching batches as needed; false when it has none left. */
    private boolean advance(int stream) {
        Batch batch = current[stream];
        if (batch != null && currentIndex[stream] + 1 < batch.selectedCount()) {
            currentIndex[stream]++;
            return true;
        }
        while ((batch = inputs.get(stream).next()) != null) {
            if (batch.selectedCount() > 0) {
                current[stream] = batch;
                currentIndex[stream] = 0;
                return true;
            }
        }
        current[stream] = null;
        return false;
    }

    /** True when stream {@code left}'s row comes after stream {@code right}'s. */
    private boolean after(int left, int right) {
        int order = comparator.compare(current[left], current[left].position(currentIndex[left]),
                current[right], current[right].position(currentIndex[right]));
        return order > 0 || (order == 0 && left > right);
    }

    private void siftDown(int start) {
        int index = start;
        int stream = heap[index];
        while (true) {
            int child = 2 * index + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && after(heap[child], heap[child + 1])) {
                child++;
            }
            if (!after(stream, heap[child])) {
                break;
            }
            heap[index] = heap[child];
            index = child;
        }
        heap[index] = stream;
    }

    private void finishStreams() {
        close();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (SortedOutput input : inputs) {
            try {
                input.close();
            } catch (RuntimeException closeFailure) {
                if (failure == null) {
                    failure = closeFailure;
                } else {
                    failure.addSuppressed(closeFailure);
                }
            }
        }
        if (onClose != null) {
            onClose.run();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
