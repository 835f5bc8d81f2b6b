package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;
import java.util.Objects;

/**
 * Merges streams that are each already in sort order into one stream in sort order: a binary
 * heap of the streams keyed by their current row. Rows with equal keys come out in stream order
 * (stream 0 first), so merging the runs of one sort keeps it stable. Used for the runs of an
 * external sort and by Gather Merge for the workers' sorted outputs. Not thread-safe: one
 * consumer pulls, and it pulls each input from its own thread.
 *
 * <p>Two things keep the per-row cost low. The heap compares a 64-bit prefix of the leading key,
 * encoded once per input batch with a layout that is the same for every stream; only equal
 * prefixes fall to the full comparison. And the merge first decides which (stream, position)
 * each output row comes from, then copies column by column in tight loops, flushing what was
 * decided whenever a stream is about to replace its batch. A stream that keeps winning is
 * searched for how far it stays ahead (galloping, as in TimSort), so long runs from one input,
 * such as keys that are all equal, cost a few comparisons per batch.
 *
 * <p>A whole input batch that comes before every other stream's current row is not copied at
 * all: the merge returns that batch itself (its selection included) and fetches the stream's
 * next batch only on the following call, when the caller is done with it. One comparison of the
 * batch's last row against the runner-up decides it. Keys that are all equal (stream order then
 * decides) and inputs that barely overlap (presorted runs) are merged that way without a copy:
 * the seed's 10M copies of one 60-char text went through Gather Merge and the runs' merge with
 * two full row copies each before (JFR on SortQueryBenchmark.repeatedTextIntoTable).
 */
public final class SortedStreamMerger implements SortedOutput {
    /** Wins in a row after which the winner's batch is searched for how far it stays ahead. */
    private static final int GALLOP_AFTER_WINS = 8;

    private final List<? extends SortedOutput> inputs;
    private final BatchRowComparator comparator;
    private final PrefixKeyEncoder leadingKey;
    private final Batch[] current;
    private final int[] currentIndex;
    private final int[] currentPosition;
    private final long[] currentPrefix;
    private final long[][] prefixes;
    private final int[] heap;
    private final Batch output;
    /** Where output row {@code i} comes from, decided before it is copied. */
    private final int[] sourceStream;
    private final int[] sourcePosition;
    /** Each stream's vector of the column being copied. */
    private final ColumnVector[] streamColumns;
    private final Runnable onClose;
    private long remainingRows;
    private int streakStream = -1;
    private int streak;
    private int heapSize;
    private int copiedRows;
    /** A stream whose batch the last call returned as is: its next batch is fetched at the next call. */
    private int passedStream = -1;
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
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a merge needs at least one sort key");
        }
        this.inputs = List.copyOf(inputs);
        this.comparator = new BatchRowComparator(keys, columnTypes);
        SortKey first = keys.getFirst();
        this.leadingKey = PrefixKeyEncoder.leadingKey(first, KeyFamily.of(columnTypes.get(first.column()).kind()));
        int streams = inputs.size();
        this.current = new Batch[streams];
        this.currentIndex = new int[streams];
        this.currentPosition = new int[streams];
        this.currentPrefix = new long[streams];
        this.prefixes = new long[streams][];
        this.heap = new int[streams];
        this.output = Batch.create(columnTypes, Batch.DEFAULT_CAPACITY);
        this.sourceStream = new int[Batch.DEFAULT_CAPACITY];
        this.sourcePosition = new int[Batch.DEFAULT_CAPACITY];
        this.streamColumns = new ColumnVector[streams];
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
        if (passedStream >= 0) {
            int stream = passedStream;
            passedStream = -1;
            refill(stream);
        }
        if (heapSize == 0 || remainingRows == 0) {
            close();
            return null;
        }
        Batch whole = wholeBatchAhead();
        if (whole != null) {
            passedStream = heap[0];
            remainingRows -= whole.selectedCount();
            return whole;
        }
        output.reset();
        copiedRows = 0;
        int capacity = (int) Math.min(Batch.DEFAULT_CAPACITY, remainingRows);
        int count = 0;
        while (count < capacity && heapSize > 0) {
            int stream = heap[0];
            sourceStream[count] = stream;
            sourcePosition[count] = currentPosition[stream];
            count++;
            if (stream == streakStream) {
                streak++;
            } else {
                streakStream = stream;
                streak = 1;
            }
            int index = currentIndex[stream] + 1;
            Batch batch = current[stream];
            int available = batch.selectedCount();
            if (streak >= GALLOP_AFTER_WINS && heapSize > 1 && index < available && count < capacity) {
                int end = gallop(stream, batch, index, Math.min(available, index + capacity - count), runnerUp());
                for (; index < end; index++) {
                    sourceStream[count] = stream;
                    sourcePosition[count] = batch.position(index);
                    count++;
                }
            }
            if (index < available) {
                moveTo(stream, batch, index);
                siftDown(0);
                continue;
            }
            // The stream is about to replace its batch: copy the rows decided so far first.
            copyDecided(count);
            refill(stream);
            if (heapSize > 0 && wholeBatchAhead() != null) {
                break; // the next call returns that batch as is instead of copying it here
            }
        }
        copyDecided(count);
        remainingRows -= count;
        output.setRowCount(count);
        return output;
    }

    private void start() {
        started = true;
        for (int stream = 0; stream < inputs.size(); stream++) {
            if (fetch(stream)) {
                heap[heapSize++] = stream;
            }
        }
        for (int index = heapSize / 2 - 1; index >= 0; index--) {
            siftDown(index);
        }
    }

    /** Replaces the batch of {@code stream}, the top of the heap, with its next one, or drops the stream when it has none. */
    private void refill(int stream) {
        if (fetch(stream)) {
            siftDown(0);
        } else {
            heap[0] = heap[--heapSize];
            if (heapSize > 0) {
                siftDown(0);
            }
        }
    }

    /**
     * The top stream's batch when all of it is still to come and its last row comes before every
     * other stream's current row (so the whole batch is the next output), else null. Needs a
     * non-empty heap.
     */
    private Batch wholeBatchAhead() {
        int stream = heap[0];
        if (currentIndex[stream] != 0) {
            return null;
        }
        Batch batch = current[stream];
        int count = batch.selectedCount();
        if (count > remainingRows) {
            return null;
        }
        if (heapSize > 1 && !precedes(stream, batch.position(count - 1), runnerUp())) {
            return null;
        }
        return batch;
    }

    /** Pulls the stream's next batch with live rows and positions it on the first; false when it has none left. */
    private boolean fetch(int stream) {
        Batch batch;
        while ((batch = inputs.get(stream).next()) != null) {
            if (batch.selectedCount() > 0) {
                current[stream] = batch;
                long[] streamPrefixes = prefixes[stream];
                if (streamPrefixes == null || streamPrefixes.length < batch.rowCount()) {
                    streamPrefixes = new long[Math.max(batch.rowCount(), Batch.DEFAULT_CAPACITY)];
                    prefixes[stream] = streamPrefixes;
                }
                leadingKey.encodeLeadingKey(batch, batch.rowCount(), streamPrefixes);
                moveTo(stream, batch, 0);
                return true;
            }
        }
        current[stream] = null;
        return false;
    }

    private void moveTo(int stream, Batch batch, int index) {
        int position = batch.position(index);
        currentIndex[stream] = index;
        currentPosition[stream] = position;
        currentPrefix[stream] = prefixes[stream][position];
    }

    /** The stream whose current row would come out after the top's: the better of the top's children. */
    private int runnerUp() {
        if (heapSize == 2 || !after(heap[1], heap[2])) {
            return heap[1];
        }
        return heap[2];
    }

    /**
     * How far {@code stream}'s batch stays ahead of {@code runner}'s current row, from
     * {@code from} (exclusive end, at most {@code limit}): an exponential then a binary search,
     * valid because the batch is in order. Called only after the stream won several times in a
     * row, so interleaved inputs pay nothing, and runs of one stream (long equal stretches, inputs
     * that barely overlap) are taken with a few comparisons instead of one per row.
     */
    private int gallop(int stream, Batch batch, int from, int limit, int runner) {
        if (!precedes(stream, batch.position(from), runner)) {
            return from;
        }
        int ahead = from;
        int step = 1;
        while (from + step < limit && precedes(stream, batch.position(from + step), runner)) {
            ahead = from + step;
            step <<= 1;
        }
        int low = ahead + 1;
        int high = Math.min(from + step, limit);
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (precedes(stream, batch.position(middle), runner)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** True when position {@code position} of {@code stream}'s batch comes before stream {@code other}'s current row. */
    private boolean precedes(int stream, int position, int other) {
        long prefix = prefixes[stream][position];
        long otherPrefix = currentPrefix[other];
        if (prefix != otherPrefix) {
            return Long.compareUnsigned(prefix, otherPrefix) < 0;
        }
        int order = comparator.compare(current[stream], position, current[other], currentPosition[other]);
        return order < 0 || (order == 0 && stream < other);
    }

    /** True when stream {@code left}'s row comes after stream {@code right}'s. */
    private boolean after(int left, int right) {
        long leftPrefix = currentPrefix[left];
        long rightPrefix = currentPrefix[right];
        if (leftPrefix != rightPrefix) {
            return Long.compareUnsigned(leftPrefix, rightPrefix) > 0;
        }
        int order = comparator.compare(current[left], currentPosition[left], current[right], currentPosition[right]);
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

    /** Copies output rows {@code copiedRows..count-1} from the batches they were decided in, one column at a time. */
    private void copyDecided(int count) {
        int from = copiedRows;
        if (from == count) {
            return;
        }
        ColumnVector[] targets = output.columns();
        for (int column = 0; column < targets.length; column++) {
            for (int stream = 0; stream < current.length; stream++) {
                streamColumns[stream] = current[stream] == null ? null : current[stream].column(column);
            }
            ColumnVector target = targets[column];
            switch (target) {
                case LongVector longs -> copyLongs(longs.values(), from, count);
                case DoubleVector doubles -> copyDoubles(doubles.values(), from, count);
                case BytesVector bytes -> copyBytes(bytes, from, count);
            }
            copyNulls(target, from, count);
        }
        copiedRows = count;
    }

    private void copyLongs(long[] to, int from, int count) {
        long[][] values = new long[streamColumns.length][];
        for (int stream = 0; stream < values.length; stream++) {
            values[stream] = streamColumns[stream] == null ? null : ((LongVector) streamColumns[stream]).values();
        }
        for (int row = from; row < count; row++) {
            to[row] = values[sourceStream[row]][sourcePosition[row]];
        }
    }

    private void copyDoubles(double[] to, int from, int count) {
        double[][] values = new double[streamColumns.length][];
        for (int stream = 0; stream < values.length; stream++) {
            values[stream] = streamColumns[stream] == null ? null : ((DoubleVector) streamColumns[stream]).values();
        }
        for (int row = from; row < count; row++) {
            to[row] = values[sourceStream[row]][sourcePosition[row]];
        }
    }

    private void copyBytes(BytesVector target, int from, int count) {
        int total = 0;
        for (int row = from; row < count; row++) {
            BytesVector source = (BytesVector) streamColumns[sourceStream[row]];
            int position = sourcePosition[row];
            total += source.isNull(position) ? 0 : source.length(position);
        }
        int offset = target.reserveBytes(total);
        byte[] to = target.data();
        int[] offsets = target.offsets();
        int[] lengths = target.lengths();
        int row = from;
        while (row < count) {
            int stream = sourceStream[row];
            BytesVector source = (BytesVector) streamColumns[stream];
            int position = sourcePosition[row];
            if (source.mayHaveNulls()) {
                // A NULL slot's offsets mean nothing: it gets an empty value and its null flag.
                int length = source.isNull(position) ? 0 : source.length(position);
                System.arraycopy(source.data(), source.offset(position), to, offset, length);
                offsets[row] = offset;
                lengths[row] = length;
                offset += length;
                row++;
                continue;
            }
            // Rows taken in a stretch from one stream (a gallop, all-equal keys) whose values lie
            // back to back in its batch are copied in one piece.
            int[] sourceOffsets = source.offsets();
            int[] sourceLengths = source.lengths();
            int first = sourceOffsets[position];
            int next = first + sourceLengths[position];
            int end = row + 1;
            while (end < count && sourceStream[end] == stream && sourcePosition[end] == sourcePosition[end - 1] + 1
                    && sourceOffsets[sourcePosition[end]] == next) {
                next += sourceLengths[sourcePosition[end]];
                end++;
            }
            System.arraycopy(source.data(), first, to, offset, next - first);
            int shift = offset - first;
            for (; row < end; row++) {
                int sourceRow = sourcePosition[row];
                offsets[row] = sourceOffsets[sourceRow] + shift;
                lengths[row] = sourceLengths[sourceRow];
            }
            offset += next - first;
        }
    }

    private void copyNulls(ColumnVector target, int from, int count) {
        boolean anyNull = false;
        for (ColumnVector source : streamColumns) {
            anyNull |= source != null && source.mayHaveNulls();
        }
        if (!anyNull) {
            return;
        }
        boolean[] nulls = target.nulls();
        for (int row = from; row < count; row++) {
            nulls[row] = streamColumns[sourceStream[row]].isNull(sourcePosition[row]);
        }
        target.markMayHaveNulls();
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
