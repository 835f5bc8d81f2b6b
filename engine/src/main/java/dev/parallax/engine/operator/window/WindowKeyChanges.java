package dev.parallax.engine.operator.window;

import dev.parallax.engine.operator.ValueComparison;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * Finds where partitions and peer groups start in a window's input, sorted by the partition keys
 * then the order keys: one tight loop per key column compares each live row with the one before
 * it, the first with the last row of the previous batch (remembered across calls). NULLs equal
 * each other, and doubles compare as PostgreSQL's float equality. Used by one thread.
 */
final class WindowKeyChanges {
    private final int[] partitionColumns;
    private final int[] orderColumns;
    /** The last row seen, one single-row vector per key column (partition columns then order columns); null before the first row. */
    private ColumnVector[] previous;

    WindowKeyChanges(int[] partitionColumns, int[] orderColumns) {
        this.partitionColumns = partitionColumns;
        this.orderColumns = orderColumns;
    }

    /**
     * Sets {@code partitionStarts[i]} for the live rows i of {@code batch} that start a partition
     * (the first row of the input does) and {@code peerStarts[i]} for those whose order keys differ
     * from the row before (a partition start need not be marked there), from {@code offset} on in
     * both arrays; then remembers the batch's last live row.
     */
    void mark(Batch batch, boolean[] partitionStarts, boolean[] peerStarts, int offset) {
        int count = batch.selectedCount();
        Arrays.fill(partitionStarts, offset, offset + count, false);
        Arrays.fill(peerStarts, offset, offset + count, false);
        if (count == 0) {
            return;
        }
        if (previous == null) {
            partitionStarts[offset] = true;
        }
        for (int key = 0; key < partitionColumns.length; key++) {
            markChanges(batch, partitionColumns[key], key, partitionStarts, offset);
        }
        for (int key = 0; key < orderColumns.length; key++) {
            markChanges(batch, orderColumns[key], partitionColumns.length + key, peerStarts, offset);
        }
        rememberLast(batch, batch.position(count - 1));
    }

    private void markChanges(Batch batch, int column, int key, boolean[] starts, int offset) {
        ColumnVector vector = batch.column(column);
        int count = batch.selectedCount();
        if (count > 0 && previous != null) {
            starts[offset] |= !sameValue(vector, batch.position(0), previous[key], 0);
        }
        switch (vector) {
            case LongVector longs -> {
                long[] values = longs.values();
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[offset + index] |= nullDiffers(longs, position, prior) || !longs.isNull(position) && values[position] != values[prior];
                }
            }
            case DoubleVector doubles -> {
                double[] values = doubles.values();
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[offset + index] |= nullDiffers(doubles, position, prior)
                            || !doubles.isNull(position) && !sameDouble(values[position], values[prior]);
                }
            }
            case BytesVector bytes -> {
                for (int index = 1; index < count; index++) {
                    int position = batch.position(index);
                    int prior = batch.position(index - 1);
                    starts[offset + index] |= nullDiffers(bytes, position, prior)
                            || !bytes.isNull(position) && !sameBytes(bytes, position, bytes, prior);
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
            case DoubleVector doubles -> sameDouble(doubles.values()[leftPosition], ((DoubleVector) right).values()[rightPosition]);
            case BytesVector bytes -> sameBytes(bytes, leftPosition, (BytesVector) right, rightPosition);
        };
    }

    /** PostgreSQL's float equality: -0 equals 0 (Double.compare tells them apart), NaN equals NaN. */
    private static boolean sameDouble(double left, double right) {
        return left == right || Double.isNaN(left) && Double.isNaN(right);
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
}
