package dev.parallax.engine.operator.window;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.operator.aggregate.WindowAggregate;
import dev.parallax.engine.plan.WindowCall;
import dev.parallax.engine.plan.WindowFrame;
import dev.parallax.engine.plan.WindowFunction;
import dev.parallax.engine.plan.WindowNode;
import dev.parallax.engine.plan.WindowRangeOffsets;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The window functions that read their whole partition ({@link WindowFunction#needsPartition()}:
 * lag, lead, first_value, last_value, nth_value, ntile, percent_rank, cume_dist) and the aggregates
 * over {@link WindowFrame#ROWS}, {@link WindowFrame#RANGE} and {@link WindowFrame#GROUPS} frames, over the
 * {@link WindowOperator}'s output, which carries a column for each of them still to be filled.
 * Each batch is held (copied, unless the window operator hands over batches it copied itself)
 * until the row starting the next partition, or the input's end, arrives; then every such
 * function is computed for the partition's rows, one loop per function, and the batches whose
 * rows all have their values go on in input order. A partition is held in memory, not spilled,
 * as PostgreSQL's WindowAgg holds it in its tuplestore (which spills past work_mem).
 * <p>Rows are numbered across the held batches (batch {@code b} holds rows
 * {@code batchStarts[b] ..}); a function reading another row of its partition finds its batch by
 * a binary search over the held batches, skipped while it stays in the same batch.
 * <p>Every row's frame is found once per partition ({@link FrameExtents}). An aggregate over a
 * frame whose start is UNBOUNDED PRECEDING (without exclusion) adds each row once, as the frame
 * only grows; a frame whose start moves, or that excludes rows, is added again from its start at
 * every row whose frame differs from the previous row's (cost rows x frame rows; peers of a RANGE
 * or GROUPS frame share one), as PostgreSQL restarts the aggregate when it has no inverse
 * transition (min, max, float sums) or the frame excludes rows; PostgreSQL's inverse transitions
 * for integer sums and counts are not done here.
 */
final class PartitionWindowOperator implements Operator {
    private final Operator input;
    private final boolean copiesBatches;
    private final WindowKeyChanges keyChanges;
    /** Every row's frame in the partition being computed. */
    private final FrameExtents extents;
    /** The order key column a RANGE frame's offsets are measured on, -1 when there are none; whether it is read as doubles. */
    private final int rangeKeyColumn;
    private final boolean doubleKeys;
    /** The partition's RANGE keys by held row (one of the two), and which are NULL. */
    private long[] longKeyValues = new long[0];
    private double[] doubleKeyValues = new double[0];
    private boolean[] keyNulls = new boolean[0];
    /** The calls computed here, their output columns and argument columns (an aggregate's argument, -1 for count(*)). */
    private final WindowFunction[] functions;
    private final int[] outputColumns;
    private final int[][] arguments;
    /** Per call, its aggregate over a ROWS, RANGE or GROUPS frame; null for the other functions. */
    private final WindowAggregate[] aggregates;
    /** Whether a call reads its rows' frames (aggregates, first_value, last_value, nth_value). */
    private final boolean framed;
    /** The runs of the frame last added to an aggregate ({@link #frameAggregate}). */
    private final int[] previousFirsts = new int[3];
    private final int[] previousEnds = new int[3];
    /** Positions of the frame rows of one held batch, handed to an aggregate. */
    private int[] framePositions = new int[Batch.DEFAULT_CAPACITY];
    private final List<Batch> held = new ArrayList<>();
    private int[] batchStarts = new int[16];
    private int heldRows;
    /** Per held row, whether it starts a partition or a peer group (a partition start need not be marked a peer start). */
    private boolean[] partitionStarts = new boolean[Batch.DEFAULT_CAPACITY];
    private boolean[] peerStarts = new boolean[Batch.DEFAULT_CAPACITY];
    /** The first held row of the partition still open (its end has not arrived). */
    private int openStart;
    private final ArrayDeque<Batch> ready = new ArrayDeque<>();
    private boolean inputDone;
    /** The held batch of the last row looked up (cache of {@link #batchOf(int)}). */
    private int lookupBatch;

    /**
     * @param copiesBatches whether each input batch must be copied before it is held (false when
     *                      the input hands over batches nobody else writes)
     * @param firstCallColumn the column of the first call in the input's batches (the calls' columns follow in order)
     */
    PartitionWindowOperator(Operator input, boolean copiesBatches, WindowNode node, int firstCallColumn) {
        this.input = input;
        this.copiesBatches = copiesBatches;
        this.keyChanges = new WindowKeyChanges(node.partitionColumns(), node.orderColumns());
        WindowFrame frame = node.frame();
        WindowRangeOffsets rangeOffsets = node.rangeOffsets();
        RangeOffsetSearch rangeSearch = rangeOffsets == null ? null
                : new RangeOffsetSearch(rangeOffsets, node.frameStart() == -1, node.frameEnd() == -1);
        this.extents = new FrameExtents(frame, node.frameStart(), node.frameEnd(), node.exclusion(), rangeSearch);
        this.rangeKeyColumn = rangeOffsets == null ? -1 : node.orderColumns()[0];
        this.doubleKeys = rangeOffsets != null && RangeOffsetSearch.readsDoubles(rangeOffsets);
        List<WindowCall> calls = node.calls();
        List<Integer> computed = new ArrayList<>();
        for (int call = 0; call < calls.size(); call++) {
            if (computes(calls.get(call), frame)) {
                computed.add(call);
            }
        }
        this.functions = new WindowFunction[computed.size()];
        this.outputColumns = new int[computed.size()];
        this.arguments = new int[computed.size()][];
        this.aggregates = new WindowAggregate[computed.size()];
        for (int index = 0; index < functions.length; index++) {
            WindowCall call = calls.get(computed.get(index));
            functions[index] = call.function();
            outputColumns[index] = firstCallColumn + computed.get(index);
            if (call.aggregate() != null) {
                aggregates[index] = new WindowAggregate(call.aggregate());
                arguments[index] = new int[] {call.aggregate().argument()};
            } else {
                arguments[index] = call.arguments();
            }
        }
        boolean anyFramed = false;
        for (WindowFunction function : functions) {
            anyFramed |= switch (function) {
                case AGGREGATE, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
                case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD -> false;
            };
        }
        this.framed = anyFramed;
    }

    /** Whether this operator computes {@code call} of a window over {@code frame} (else the {@link WindowOperator} does). */
    static boolean computes(WindowCall call, WindowFrame frame) {
        return call.function().needsPartition() || call.function() == WindowFunction.AGGREGATE && frame.isComputedOverPartition();
    }

    @Override
    public Batch next() {
        while (true) {
            Batch done = ready.poll();
            if (done != null) {
                return done;
            }
            if (inputDone) {
                return null;
            }
            Batch batch = input.next();
            if (batch == null) {
                inputDone = true;
                if (heldRows > openStart) {
                    computePartition(openStart, heldRows);
                }
                release(heldRows);
                continue;
            }
            if (batch.selectedCount() > 0) {
                hold(copiesBatches ? BatchCopier.compact(batch) : batch);
            }
        }
    }

    /** Holds a batch (all rows live), computes the partitions it ends, and releases the batches they complete. */
    private void hold(Batch batch) {
        int rows = batch.rowCount();
        int start = heldRows;
        if (partitionStarts.length < start + rows) {
            int capacity = Math.max(start + rows, 2 * partitionStarts.length);
            partitionStarts = Arrays.copyOf(partitionStarts, capacity);
            peerStarts = Arrays.copyOf(peerStarts, capacity);
        }
        keyChanges.mark(batch, partitionStarts, peerStarts, start);
        if (held.size() == batchStarts.length) {
            batchStarts = Arrays.copyOf(batchStarts, 2 * batchStarts.length);
        }
        batchStarts[held.size()] = start;
        held.add(batch);
        heldRows = start + rows;
        for (int row = start; row < heldRows; row++) {
            if (partitionStarts[row] && row > openStart) {
                computePartition(openStart, row);
                openStart = row;
            }
        }
        release(openStart);
    }

    /** Passes on the held batches whose rows all come before {@code end}, and renumbers the rest from 0. */
    private void release(int end) {
        int released = 0;
        while (released < held.size() && batchStarts[released] + held.get(released).rowCount() <= end) {
            ready.add(held.get(released));
            released++;
        }
        if (released == 0) {
            return;
        }
        int shift = released == held.size() ? heldRows : batchStarts[released];
        held.subList(0, released).clear();
        for (int index = 0; index < held.size(); index++) {
            batchStarts[index] = batchStarts[index + released] - shift;
        }
        System.arraycopy(partitionStarts, shift, partitionStarts, 0, heldRows - shift);
        System.arraycopy(peerStarts, shift, peerStarts, 0, heldRows - shift);
        heldRows -= shift;
        openStart -= shift;
        lookupBatch = 0;
    }

    /** Computes every call for the held rows {@code from .. to-1}, one partition. */
    private void computePartition(int from, int to) {
        if (framed) {
            if (rangeKeyColumn >= 0) {
                readRangeKeys(from, to);
            }
            extents.compute(peerStarts, from, to, longKeyValues, doubleKeys ? doubleKeyValues : null, keyNulls);
        }
        for (int call = 0; call < functions.length; call++) {
            switch (functions[call]) {
                case PERCENT_RANK, CUME_DIST -> distribution(call, from, to);
                case NTILE -> ntile(call, from, to);
                case LAG, LEAD -> offsetValue(call, from, to);
                case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> frameValue(call, from, to);
                case AGGREGATE -> frameAggregate(call, from, to);
                case ROW_NUMBER, RANK, DENSE_RANK -> throw new IllegalStateException("computed by the window operator: " + functions[call]);
            }
        }
    }

    /** The end (exclusive) of the peer group starting at held row {@code row}, within the partition ending at {@code to}. */
    private int peerGroupEnd(int row, int to) {
        int end = row + 1;
        while (end < to && !peerStarts[end]) {
            end++;
        }
        return end;
    }

    /** percent_rank: (rank - 1) / (rows - 1), 0 for a single row; cume_dist: rows through the last peer / rows. */
    private void distribution(int call, int from, int to) {
        boolean percentRank = functions[call] == WindowFunction.PERCENT_RANK;
        double rows = to - from;
        int groupStart = from;
        int groupEnd = from;
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            double[] out = ((DoubleVector) batch.column(outputColumns[call])).values();
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            int first = row;
            for (; row < end; row++) {
                if (row == groupEnd) {
                    groupStart = row;
                    groupEnd = peerGroupEnd(row, to);
                }
                out[row - start] = percentRank ? (rows > 1 ? (groupStart - from) / (rows - 1) : 0) : (groupEnd - from) / rows;
            }
            clearNulls(batch.column(outputColumns[call]), first - start, end - start);
        }
    }

    /**
     * ntile(n) as PostgreSQL's window_ntile: n is read at the partition's first row (a NULL gives
     * NULL and is read again at the next row); the first {@code rows % n} buckets hold one row more.
     */
    private void ntile(int call, int from, int to) {
        int argument = arguments[call][0];
        long rows = to - from;
        long bucket = 0;
        long rowsInBucket = 0;
        long boundary = 0;
        long remainder = 0;
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            LongVector out = (LongVector) batch.column(outputColumns[call]);
            LongVector buckets = (LongVector) batch.column(argument);
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            for (; row < end; row++) {
                int position = row - start;
                if (bucket == 0) {
                    if (buckets.isNull(position)) {
                        out.setNull(position);
                        continue;
                    }
                    long count = buckets.values()[position];
                    if (count <= 0) {
                        throw ParallaxException.of(SqlState.INVALID_ARGUMENT_FOR_NTILE, "argument of ntile must be greater than zero");
                    }
                    bucket = 1;
                    boundary = rows / count;
                    if (boundary <= 0) {
                        boundary = 1;
                    } else {
                        remainder = rows % count;
                        if (remainder != 0) {
                            boundary++;
                        }
                    }
                }
                rowsInBucket++;
                if (boundary < rowsInBucket) {
                    if (remainder != 0 && bucket == remainder) {
                        remainder = 0;
                        boundary--;
                    }
                    bucket++;
                    rowsInBucket = 1;
                }
                out.values()[position] = bucket;
                if (out.mayHaveNulls()) {
                    out.setNotNull(position);
                }
            }
        }
    }

    /** lag and lead: the value {@code offset} rows before or after in the partition, else the default (read at the current row). */
    private void offsetValue(int call, int from, int to) {
        int[] callArguments = arguments[call];
        int value = callArguments[0];
        int offsetColumn = callArguments.length > 1 ? callArguments[1] : -1;
        int defaultColumn = callArguments.length > 2 ? callArguments[2] : -1;
        boolean lag = functions[call] == WindowFunction.LAG;
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            ColumnVector out = batch.column(outputColumns[call]);
            LongVector offsets = offsetColumn < 0 ? null : (LongVector) batch.column(offsetColumn);
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            for (; row < end; row++) {
                int position = row - start;
                long offset = 1;
                if (offsets != null) {
                    if (offsets.isNull(position)) {
                        out.setNull(position);
                        continue;
                    }
                    offset = offsets.values()[position];
                }
                long target = lag ? row - offset : row + offset;
                if (target >= from && target < to) {
                    copyHeldValue((int) target, value, out, position);
                } else if (defaultColumn >= 0) {
                    copyValue(batch.column(defaultColumn), position, out, position);
                } else {
                    out.setNull(position);
                }
            }
        }
    }

    /** Copies the RANGE order key of the held rows {@code from .. to-1} into {@link #longKeyValues} or {@link #doubleKeyValues}. */
    private void readRangeKeys(int from, int to) {
        if (keyNulls.length < to) {
            int capacity = Math.max(to, 2 * keyNulls.length);
            keyNulls = new boolean[capacity];
            if (doubleKeys) {
                doubleKeyValues = new double[capacity];
            } else {
                longKeyValues = new long[capacity];
            }
        }
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            ColumnVector keys = batch.column(rangeKeyColumn);
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            if (doubleKeys) {
                System.arraycopy(((DoubleVector) keys).values(), row - start, doubleKeyValues, row, end - row);
            } else {
                System.arraycopy(((LongVector) keys).values(), row - start, longKeyValues, row, end - row);
            }
            for (; row < end; row++) {
                keyNulls[row] = keys.isNull(row - start);
            }
        }
    }

    /**
     * An aggregate over each row's frame. When frames only grow (from the partition's first row,
     * no exclusion) each row is added once; else a row's frame is added from its start, unless it
     * is the previous row's (peers of RANGE and GROUPS frames), whose result is written again.
     */
    private void frameAggregate(int call, int from, int to) {
        WindowAggregate aggregate = aggregates[call];
        int argument = arguments[call][0];
        boolean growing = extents.grows();
        aggregate.clear();
        int added = from;
        int previousCount = -1;
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            ColumnVector out = batch.column(outputColumns[call]);
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            for (; row < end; row++) {
                if (growing) {
                    int last = extents.end(row);
                    if (last > added) {
                        addHeldRows(aggregate, argument, added, last);
                        added = last;
                    }
                } else {
                    int count = extents.segments(row);
                    if (!sameSegments(count, previousCount)) {
                        aggregate.clear();
                        for (int segment = 0; segment < count; segment++) {
                            addHeldRows(aggregate, argument, extents.segmentFirsts[segment], extents.segmentEnds[segment]);
                        }
                        previousCount = count;
                        System.arraycopy(extents.segmentFirsts, 0, previousFirsts, 0, count);
                        System.arraycopy(extents.segmentEnds, 0, previousEnds, 0, count);
                    }
                }
                aggregate.writeResult(out, row - start);
            }
        }
    }

    /** Whether the frame's runs just found are those last added ({@link #previousFirsts}, {@link #previousEnds}). */
    private boolean sameSegments(int count, int previousCount) {
        if (count != previousCount) {
            return false;
        }
        for (int segment = 0; segment < count; segment++) {
            if (extents.segmentFirsts[segment] != previousFirsts[segment] || extents.segmentEnds[segment] != previousEnds[segment]) {
                return false;
            }
        }
        return true;
    }

    /** Adds the held rows {@code first .. last-1} (none when {@code first >= last}) to {@code aggregate}, one call per held batch. */
    private void addHeldRows(WindowAggregate aggregate, int argument, int first, int last) {
        int row = first;
        while (row < last) {
            int batchIndex = batchOf(row);
            Batch batch = held.get(batchIndex);
            int start = batchStarts[batchIndex];
            int end = Math.min(last, start + batch.rowCount());
            int count = end - row;
            if (framePositions.length < count) {
                framePositions = new int[Math.max(count, 2 * framePositions.length)];
            }
            for (int index = 0; index < count; index++) {
                framePositions[index] = row - start + index;
            }
            aggregate.add(argument < 0 ? null : batch.column(argument), framePositions, count);
            row = end;
        }
    }

    /**
     * first_value, last_value and nth_value over the row's frame ({@link FrameExtents#segments}: its
     * runs less the excluded rows; NULL when it is empty). nth_value's n is read per row (a NULL
     * gives NULL, below 1 fails as in PostgreSQL) and counts the frame's rows across its runs.
     */
    private void frameValue(int call, int from, int to) {
        WindowFunction function = functions[call];
        int value = arguments[call][0];
        int nthColumn = function == WindowFunction.NTH_VALUE ? arguments[call][1] : -1;
        int batchIndex = batchOf(from);
        for (int row = from; row < to; batchIndex++) {
            Batch batch = held.get(batchIndex);
            ColumnVector out = batch.column(outputColumns[call]);
            LongVector nths = nthColumn < 0 ? null : (LongVector) batch.column(nthColumn);
            int start = batchStarts[batchIndex];
            int end = Math.min(to, start + batch.rowCount());
            for (; row < end; row++) {
                int position = row - start;
                int count = extents.segments(row);
                int target = -1;
                if (function == WindowFunction.FIRST_VALUE) {
                    target = count == 0 ? -1 : extents.segmentFirsts[0];
                } else if (function == WindowFunction.LAST_VALUE) {
                    target = count == 0 ? -1 : extents.segmentEnds[count - 1] - 1;
                } else {
                    if (nths.isNull(position)) {
                        out.setNull(position);
                        continue;
                    }
                    long nth = nths.values()[position];
                    if (nth <= 0) {
                        throw ParallaxException.of(SqlState.INVALID_ARGUMENT_FOR_NTH_VALUE, "argument of nth_value must be greater than zero");
                    }
                    long remaining = nth - 1;
                    for (int segment = 0; segment < count; segment++) {
                        int length = extents.segmentEnds[segment] - extents.segmentFirsts[segment];
                        if (remaining < length) {
                            target = extents.segmentFirsts[segment] + (int) remaining;
                            break;
                        }
                        remaining -= length;
                    }
                }
                if (target >= 0) {
                    copyHeldValue(target, value, out, position);
                } else {
                    out.setNull(position);
                }
            }
        }
    }

    /** Copies the value in {@code column} of held row {@code row} to {@code target} at {@code position}. */
    private void copyHeldValue(int row, int column, ColumnVector target, int position) {
        int batch = batchOf(row);
        copyValue(held.get(batch).column(column), row - batchStarts[batch], target, position);
    }

    /** The held batch holding held row {@code row}: the last one looked up when it does, else a binary search. */
    private int batchOf(int row) {
        int start = batchStarts[lookupBatch];
        if (row >= start && row < start + held.get(lookupBatch).rowCount()) {
            return lookupBatch;
        }
        int low = 0;
        int high = held.size() - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (batchStarts[middle] <= row) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        lookupBatch = low;
        return low;
    }

    /** Copies the value (or NULL) at {@code sourcePosition} of {@code source} to {@code target}, a vector of the same class. */
    private static void copyValue(ColumnVector source, int sourcePosition, ColumnVector target, int targetPosition) {
        if (source.isNull(sourcePosition)) {
            target.setNull(targetPosition);
            return;
        }
        switch (target) {
            case LongVector longs -> longs.values()[targetPosition] = ((LongVector) source).values()[sourcePosition];
            case DoubleVector doubles -> doubles.values()[targetPosition] = ((DoubleVector) source).values()[sourcePosition];
            case BytesVector bytes -> {
                BytesVector from = (BytesVector) source;
                bytes.set(targetPosition, from.data(), from.offset(sourcePosition), from.length(sourcePosition));
            }
        }
        if (target.mayHaveNulls()) {
            target.setNotNull(targetPosition);
        }
    }

    private static void clearNulls(ColumnVector vector, int from, int to) {
        if (vector.mayHaveNulls()) {
            for (int position = from; position < to; position++) {
                vector.setNotNull(position);
            }
        }
    }

    @Override
    public void close() {
        held.clear();
        ready.clear();
        input.close();
    }
}
