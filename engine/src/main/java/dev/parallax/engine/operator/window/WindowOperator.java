package dev.parallax.engine.operator.window;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.operator.aggregate.WindowAggregate;
import dev.parallax.engine.plan.WindowCall;
import dev.parallax.engine.plan.WindowFrame;
import dev.parallax.engine.plan.WindowFunction;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * Computes window functions over input sorted by (partition keys, order keys). Per batch, one
 * tight loop per key column marks the rows that start a new partition or a new peer group
 * (comparing each row with the one before it, the first with the last row of the previous batch),
 * then one loop numbers the rows for the ranking functions.
 * <p>Aggregates advance one <em>frame step</em> at a time: a run of rows that all see the same
 * frame end (one row for {@link WindowFrame#THROUGH_ROW}, a peer group for
 * {@link WindowFrame#THROUGH_PEERS}, the partition for {@link WindowFrame#PARTITION}). A step's
 * rows are added to the aggregate's accumulator in one call, its result is read once, and copied
 * to each of its rows; the accumulator is cleared at each partition.
 * <p>Only a row's own batch is needed while steps are single rows: the output batch then shares
 * the input's columns and appends the function columns. Under the other frames, the last step of
 * a batch may go on in the next one, so each batch is copied and held until the step that ends it
 * is complete (the whole partition for {@link WindowFrame#PARTITION}, as PostgreSQL's tuplestore
 * holds it).
 */
final class WindowOperator implements Operator {
    private final Operator input;
    private final WindowFrame frame;
    private final WindowFunction[] functions;
    /** Per call, its aggregate; null for the ranking functions. */
    private final WindowAggregate[] aggregates;
    /** Per call, the input column of its aggregate's argument; -1 for count(*) and the ranking functions. */
    private final int[] arguments;
    private final boolean hasAggregates;
    /** Whether batches are held until their last frame step ends (aggregates over steps longer than a row). */
    private final boolean holdsBatches;
    /** The function columns appended to the input's while batches are not held, reused for every batch. */
    private final ColumnVector[] outputs;
    /** Per aggregate call, a one-row vector for the result of the current frame step. */
    private final ColumnVector[] stepResults;
    private boolean[] partitionStarts = new boolean[Batch.DEFAULT_CAPACITY];
    private boolean[] peerStarts = new boolean[Batch.DEFAULT_CAPACITY];
    private int[] stepPositions = new int[Batch.DEFAULT_CAPACITY];
    private final WindowKeyChanges keyChanges;
    private long rowNumber;
    private long rank;
    private long denseRank;
    /**
     * Held batches whose last rows belong to the open frame step: from {@link #heldOpenStart} in
     * the first, all rows of the others. Their other rows have their values.
     */
    private final ArrayDeque<Batch> held = new ArrayDeque<>();
    private int heldOpenStart;
    /** Held batches whose rows all have their values, in input order. */
    private final ArrayDeque<Batch> ready = new ArrayDeque<>();
    private boolean inputDone;

    WindowOperator(Operator input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, List<WindowCall> calls) {
        this.input = input;
        this.keyChanges = new WindowKeyChanges(partitionColumns, orderColumns);
        this.frame = frame;
        int count = calls.size();
        this.functions = new WindowFunction[count];
        this.aggregates = new WindowAggregate[count];
        this.arguments = new int[count];
        this.outputs = new ColumnVector[count];
        this.stepResults = new ColumnVector[count];
        boolean anyAggregate = false;
        for (int index = 0; index < count; index++) {
            WindowCall call = calls.get(index);
            functions[index] = call.function();
            outputs[index] = ColumnVector.create(call.resultType(), Batch.DEFAULT_CAPACITY);
            arguments[index] = -1;
            // Aggregates over ROWS, RANGE and GROUPS frames see rows after the current one or lose rows: PartitionWindowOperator computes them.
            if (call.aggregate() != null && !frame.isComputedOverPartition()) {
                aggregates[index] = new WindowAggregate(call.aggregate());
                arguments[index] = call.aggregate().argument();
                stepResults[index] = ColumnVector.create(call.resultType(), 1);
                anyAggregate = true;
            }
        }
        this.hasAggregates = anyAggregate;
        this.holdsBatches = anyAggregate && frame != WindowFrame.THROUGH_ROW;
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
                if (!held.isEmpty()) {
                    finishStep(null, null, 0, 0);
                }
                continue;
            }
            if (!holdsBatches) {
                return computeInPlace(batch);
            }
            computeHeld(batch);
        }
    }

    /** Computes the functions of a batch whose frame steps all end in it: its columns plus {@link #outputs}. */
    private Batch computeInPlace(Batch batch) {
        int rows = batch.rowCount();
        for (ColumnVector output : outputs) {
            output.reset(output.capacity());
            output.ensureCapacity(rows);
        }
        compute(batch, outputs);
        ColumnVector[] columns = new ColumnVector[batch.columnCount() + outputs.length];
        for (int column = 0; column < batch.columnCount(); column++) {
            columns[column] = batch.column(column);
        }
        System.arraycopy(outputs, 0, columns, batch.columnCount(), outputs.length);
        Batch result = new Batch(columns);
        result.setRowCount(rows);
        if (batch.selection() != null) {
            result.setSelection(batch.selection(), batch.selectedCount());
        }
        return result;
    }

    /** Copies the live rows of a batch with fresh function columns, computes them, and holds the copy. */
    private void computeHeld(Batch batch) {
        Batch copy = BatchCopier.compact(batch);
        int count = copy.rowCount();
        ColumnVector[] columns = new ColumnVector[copy.columnCount() + outputs.length];
        System.arraycopy(copy.columns(), 0, columns, 0, copy.columnCount());
        for (int call = 0; call < outputs.length; call++) {
            columns[copy.columnCount() + call] = ColumnVector.create(outputs[call].type(), Math.max(1, count));
        }
        Batch result = new Batch(columns);
        result.setRowCount(count);
        ColumnVector[] functionColumns = Arrays.copyOfRange(columns, copy.columnCount(), columns.length);
        int openStart = compute(result, functionColumns);
        if (count == 0) {
            return;
        }
        if (held.isEmpty()) {
            heldOpenStart = openStart;
        }
        held.add(result);
    }

    /**
     * Computes the function columns of the live rows of {@code batch} into {@code out}. Returns the
     * index of the first live row of the frame step still open at the end of the batch (its rows
     * are added to the aggregates but have no value yet), or the live row count when none is.
     */
    private int compute(Batch batch, ColumnVector[] out) {
        int rows = batch.rowCount();
        if (partitionStarts.length < rows) {
            partitionStarts = new boolean[rows];
            peerStarts = new boolean[rows];
            stepPositions = new int[rows];
        }
        int count = batch.selectedCount();
        keyChanges.mark(batch, partitionStarts, peerStarts, 0);
        int stepStart = 0;
        for (int index = 0; index < count; index++) {
            int position = batch.position(index);
            boolean partitionStart = partitionStarts[index];
            if (partitionStart) {
                rowNumber = 0;
                rank = 0;
                denseRank = 0;
                peerStarts[index] = true;
            }
            rowNumber++;
            if (peerStarts[index]) {
                rank = rowNumber;
                denseRank++;
            }
            for (int call = 0; call < functions.length; call++) {
                switch (functions[call]) {
                    case ROW_NUMBER -> ((LongVector) out[call]).values()[position] = rowNumber;
                    case RANK -> ((LongVector) out[call]).values()[position] = rank;
                    case DENSE_RANK -> ((LongVector) out[call]).values()[position] = denseRank;
                    // Computed once the partition is complete (PartitionWindowOperator); the aggregates at each frame step
                    // (under ROWS, RANGE and GROUPS frames, once the partition is complete).
                    case AGGREGATE, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                    }
                }
            }
            if (!hasAggregates) {
                continue;
            }
            boolean stepStarts = switch (frame) {
                case PARTITION -> partitionStart;
                case THROUGH_PEERS -> peerStarts[index];
                case THROUGH_ROW -> true;
                case ROWS, RANGE, GROUPS -> throw new IllegalStateException("aggregates over " + frame + " frames are computed over whole partitions");
            };
            if (stepStarts) {
                if (index > stepStart || !held.isEmpty()) {
                    finishStep(batch, out, stepStart, index);
                }
                stepStart = index;
                if (partitionStart) {
                    for (WindowAggregate aggregate : aggregates) {
                        if (aggregate != null) {
                            aggregate.clear();
                        }
                    }
                }
            }
        }
        if (!hasAggregates || count == 0) {
            return count;
        }
        if (!holdsBatches) {
            // Steps of one row: the last row's step is complete.
            finishStep(batch, out, stepStart, count);
            return count;
        }
        addStep(batch, stepStart, count);
        return stepStart;
    }

    /** Adds the live rows {@code from .. to-1} of {@code batch} to every aggregate. */
    private void addStep(Batch batch, int from, int to) {
        int length = to - from;
        if (length == 0) {
            return;
        }
        for (int index = 0; index < length; index++) {
            stepPositions[index] = batch.position(from + index);
        }
        for (int call = 0; call < aggregates.length; call++) {
            if (aggregates[call] != null) {
                aggregates[call].add(arguments[call] < 0 ? null : batch.column(arguments[call]), stepPositions, length);
            }
        }
    }

    /**
     * Ends the open frame step at live row {@code to} of {@code batch} (null at the end of the
     * input): adds the rows {@code from .. to-1}, then gives every row of the step its values,
     * the held rows first, which then all have their values and become ready.
     */
    private void finishStep(Batch batch, ColumnVector[] out, int from, int to) {
        if (batch != null) {
            addStep(batch, from, to);
        }
        for (int call = 0; call < aggregates.length; call++) {
            if (aggregates[call] == null) {
                continue;
            }
            ColumnVector result = stepResults[call];
            result.reset(1);
            aggregates[call].writeResult(result, 0);
            int heldColumn = -1;
            boolean first = true;
            for (Batch heldBatch : held) {
                if (heldColumn < 0) {
                    heldColumn = heldBatch.columnCount() - aggregates.length + call;
                }
                fill(result, heldBatch.column(heldColumn), null, first ? heldOpenStart : 0, heldBatch.rowCount());
                first = false;
            }
            if (batch != null) {
                fill(result, out[call], batch.selection(), from, to);
            }
        }
        ready.addAll(held);
        held.clear();
    }

    /** Writes the value at position 0 of {@code value} at the live rows {@code from .. to-1} of {@code target}. */
    private static void fill(ColumnVector value, ColumnVector target, int[] selection, int from, int to) {
        if (value.isNull(0)) {
            for (int index = from; index < to; index++) {
                target.setNull(selection == null ? index : selection[index]);
            }
            return;
        }
        switch (target) {
            case LongVector longs -> {
                long[] values = longs.values();
                long result = ((LongVector) value).values()[0];
                for (int index = from; index < to; index++) {
                    values[selection == null ? index : selection[index]] = result;
                }
            }
            case DoubleVector doubles -> {
                double[] values = doubles.values();
                double result = ((DoubleVector) value).values()[0];
                for (int index = from; index < to; index++) {
                    values[selection == null ? index : selection[index]] = result;
                }
            }
            case BytesVector bytes -> {
                BytesVector source = (BytesVector) value;
                for (int index = from; index < to; index++) {
                    bytes.set(selection == null ? index : selection[index], source.data(), source.offset(0), source.length(0));
                }
            }
        }
        if (target.mayHaveNulls()) {
            for (int index = from; index < to; index++) {
                target.setNotNull(selection == null ? index : selection[index]);
            }
        }
    }

    /** Whether the batches returned are copies nobody else writes (held mode); else they share the input's columns and reused function columns. */
    boolean handsOverBatches() {
        return holdsBatches;
    }

    @Override
    public void close() {
        held.clear();
        ready.clear();
        input.close();
    }
}
