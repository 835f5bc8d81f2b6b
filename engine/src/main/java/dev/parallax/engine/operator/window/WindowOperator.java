package dev.parallax.engine.operator.window;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.ValueComparison;
import dev.parallax.engine.plan.WindowFunction;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Computes ranking window functions over input sorted by (partition keys, order keys). Per batch,
 * one tight loop per key column marks the rows that start a new partition or a new peer group
 * (comparing each row with the one before it, the first with the last row of the previous batch),
 * then one loop numbers the rows. The output batch shares the input's columns and appends the
 * function columns; the previous row's key values are kept as a copy between batches.
 */
final class WindowOperator implements Operator {
    private final Operator input;
    private final int[] partitionColumns;
    private final int[] orderColumns;
    private final List<WindowFunction> functions;
    private final LongVector[] outputs;
    private boolean[] partitionStarts = new boolean[Batch.DEFAULT_CAPACITY];
    private boolean[] peerStarts = new boolean[Batch.DEFAULT_CAPACITY];
    /** The last row seen, one single-row vector per key column (partition columns then order columns); null before the first row. */
    private ColumnVector[] previous;
    private long rowNumber;
    private long rank;
    private long denseRank;

    WindowOperator(Operator input, int[] partitionColumns, int[] orderColumns, List<WindowFunction> functions) {
        this.input = input;
        this.partitionColumns = partitionColumns;
        this.orderColumns = orderColumns;
        this.functions = functions;
        this.outputs = new LongVector[functions.size()];
        for (int index = 0; index < outputs.length; index++) {
            outputs[index] = new LongVector(DataType.BIGINT, Batch.DEFAULT_CAPACITY);
        }
    }

    @Override
    public Batch next() {
        Batch batch = input.next();
        if (batch == null) {
            return null;
        }
        int rows = batch.rowCount();
        if (partitionStarts.length < rows) {
            partitionStarts = new boolean[rows];
            peerStarts = new boolean[rows];
        }
        int count = batch.selectedCount();
        java.util.Arrays.fill(partitionStarts, 0, count, false);
        java.util.Arrays.fill(peerStarts, 0, count, false);
        for (int key = 0; key < partitionColumns.length; key++) {
            markChanges(batch, partitionColumns[key], key, partitionStarts);
        }
        for (int key = 0; key < orderColumns.length; key++) {
            markChanges(batch, orderColumns[key], partitionColumns.length + key, peerStarts);
        }
        for (LongVector output : outputs) {
            output.ensureCapacity(rows);
        }
        for (int index = 0; index < count; index++) {
            int position = batch.position(index);
            if (partitionStarts[index] || previous == null && index == 0) {
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
            for (int function = 0; function < outputs.length; function++) {
                outputs[function].values()[position] = switch (functions.get(function)) {
                    case ROW_NUMBER -> rowNumber;
                    case RANK -> rank;
                    case DENSE_RANK -> denseRank;
                };
            }
        }
        if (count > 0) {
            rememberLast(batch, batch.position(count - 1));
        }
        ColumnVector[] columns = new ColumnVector[batch.columnCount() + outputs.length];
        for (int column = 0; column < batch.columnCount(); column++) {
            columns[column] = batch.column(column);
        }
        System.arraycopy(outputs, 0, columns, batch.columnCount(), outputs.length);
        Batch result = new Batch(columns);
        result.setRowCount(rows);
        if (batch.selection() != null) {
            result.setSelection(batch.selection(), count);
        }
        return result;
    }

    /**
     * Sets {@code starts[i]} where the selected row i differs from the row before it in
     * {@code column} (NULLs equal to each other, as peers and partitions treat them).
     */
    private void markChanges(Batch batch, int column, int key, boolean[] starts) {
        ColumnVector vector = batch.column(column);
        int count = batch.selectedCount();
        if (count > 0 && previous != null) {
            starts[0] |= !sameValue(vector, batch.position(0), previous[key], 0);
        }
        switch (vector) {
            case LongVector longs -> {
                long[] values = longs.values();
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[index] |= nullDiffers(longs, position, prior) || !longs.isNull(position) && values[position] != values[prior];
                }
            }
            case DoubleVector doubles -> {
                double[] values = doubles.values();
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[index] |= nullDiffers(doubles, position, prior)
                            || !doubles.isNull(position) && Double.compare(values[position], values[prior]) != 0;
                }
            }
            case BytesVector bytes -> {
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[index] |= nullDiffers(bytes, position, prior) || !bytes.isNull(position) && !sameBytes(bytes, position, bytes, prior);
                }
            }
        }
    }

    /** Whether two values of the same type are equal, NULL equal to NULL. */
    private static boolean sameValue(ColumnVector left, int leftPosition, ColumnVector right, int rightPosition) {
        if (left.isNull(leftPosition) || right.isNull(rightPosition)) {
            return left.isNull(leftPosition) && right.isNull(rightPosition);
        }
        return switch (left) {
            case LongVector longs -> longs.values()[leftPosition] == ((LongVector) right).values()[rightPosition];
            case DoubleVector doubles -> Double.compare(doubles.values()[leftPosition], ((DoubleVector) right).values()[rightPosition]) == 0;
            case BytesVector bytes -> sameBytes(bytes, leftPosition, (BytesVector) right, rightPosition);
        };
    }

    private static boolean nullDiffers(ColumnVector vector, int position, int prior) {
        return vector.isNull(position) != vector.isNull(prior);
    }

    private static boolean sameBytes(BytesVector left, int leftPosition, BytesVector right, int rightPosition) {
        return ValueComparison.compareBytes(left.data(), left.offset(leftPosition), left.length(leftPosition),
                right.data(), right.offset(rightPosition), right.length(rightPosition)) == 0;
    }

    private void rememberLast(Batch batch, int position) {
        int keys = partitionColumns.length + orderColumns.length;
        if (previous == null) {
            previous = new ColumnVector[keys];
        }
        for (int key = 0; key < keys; key++) {
            int column = key < partitionColumns.length ? partitionColumns[key] : orderColumns[key - partitionColumns.length];
            ColumnVector source = batch.column(column);
            ColumnVector copy = ColumnVector.create(source.type(), 1);
            if (source.isNull(position)) {
                copy.setNull(0);
            } else {
                copy.copyFrom(source, position, 0);
            }
            previous[key] = copy;
        }
    }

    @Override
    public void close() {
        input.close();
    }
}
