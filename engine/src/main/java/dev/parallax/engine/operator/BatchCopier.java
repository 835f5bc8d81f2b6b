package dev.parallax.engine.operator;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;

/**
 * Copies rows between batches column by column: one type dispatch per column, then a loop over
 * primitive arrays. Used where rows must outlive their producer's next call (Gather's queue,
 * Sort and Insert materializing their input).
 */
public final class BatchCopier {
    private BatchCopier() {
    }

    /** A new batch holding copies of the live rows of {@code source}, without selection. */
    public static Batch compact(Batch source) {
        int count = source.selectedCount();
        ColumnVector[] columns = new ColumnVector[source.columnCount()];
        for (int index = 0; index < columns.length; index++) {
            columns[index] = ColumnVector.create(source.column(index).type(), Math.max(1, count));
        }
        Batch copy = new Batch(columns);
        appendLiveRows(source, copy, 0);
        copy.setRowCount(count);
        return copy;
    }

    /**
     * Appends the live rows of {@code source} to {@code target} at positions {@code targetStart..},
     * growing the target's vectors; does not change the target's row count.
     */
    public static void appendLiveRows(Batch source, Batch target, int targetStart) {
        int count = source.selectedCount();
        target.ensureCapacity(targetStart + count);
        int[] selection = source.selection();
        for (int column = 0; column < source.columnCount(); column++) {
            copyColumn(source.column(column), selection, count, target.column(column), targetStart);
        }
    }

    private static void copyColumn(ColumnVector source, int[] selection, int count, ColumnVector target, int targetStart) {
        switch (source) {
            case LongVector longs -> {
                long[] from = longs.values();
                long[] to = ((LongVector) target).values();
                if (selection == null) {
                    System.arraycopy(from, 0, to, targetStart, count);
                } else {
                    for (int index = 0; index < count; index++) {
                        to[targetStart + index] = from[selection[index]];
                    }
                }
            }
            case DoubleVector doubles -> {
                double[] from = doubles.values();
                double[] to = ((DoubleVector) target).values();
                if (selection == null) {
                    System.arraycopy(from, 0, to, targetStart, count);
                } else {
                    for (int index = 0; index < count; index++) {
                        to[targetStart + index] = from[selection[index]];
                    }
                }
            }
            case BytesVector bytes -> {
                BytesVector to = (BytesVector) target;
                byte[] data = bytes.data();
                int[] offsets = bytes.offsets();
                int[] lengths = bytes.lengths();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    to.set(targetStart + index, data, offsets[position], lengths[position]);
                }
            }
        }
        copyNulls(source, selection, count, target, targetStart);
    }

    private static void copyNulls(ColumnVector source, int[] selection, int count, ColumnVector target, int targetStart) {
        boolean[] targetNulls = target.nulls();
        if (!source.mayHaveNulls()) {
            if (target.mayHaveNulls()) {
                java.util.Arrays.fill(targetNulls, targetStart, targetStart + count, false);
            }
            return;
        }
        boolean[] sourceNulls = source.nulls();
        for (int index = 0; index < count; index++) {
            targetNulls[targetStart + index] = sourceNulls[selection == null ? index : selection[index]];
        }
        target.markMayHaveNulls();
    }

    /**
     * Copies rows {@code rows[from .. from+count)} of {@code source} (positions, no selection) to
     * positions {@code 0..count-1} of {@code target} and sets the target's row count.
     */
    public static void gather(Batch source, int[] rows, int from, int count, Batch target) {
        target.reset();
        target.ensureCapacity(count);
        for (int column = 0; column < source.columnCount(); column++) {
            ColumnVector sourceColumn = source.column(column);
            ColumnVector targetColumn = target.column(column);
            switch (sourceColumn) {
                case LongVector longs -> {
                    long[] fromValues = longs.values();
                    long[] to = ((LongVector) targetColumn).values();
                    for (int index = 0; index < count; index++) {
                        to[index] = fromValues[rows[from + index]];
                    }
                }
                case DoubleVector doubles -> {
                    double[] fromValues = doubles.values();
                    double[] to = ((DoubleVector) targetColumn).values();
                    for (int index = 0; index < count; index++) {
                        to[index] = fromValues[rows[from + index]];
                    }
                }
                case BytesVector bytes -> {
                    BytesVector to = (BytesVector) targetColumn;
                    for (int index = 0; index < count; index++) {
                        int row = rows[from + index];
                        to.set(index, bytes.data(), bytes.offset(row), bytes.length(row));
                    }
                }
            }
            if (sourceColumn.mayHaveNulls()) {
                boolean[] sourceNulls = sourceColumn.nulls();
                boolean[] targetNulls = targetColumn.nulls();
                for (int index = 0; index < count; index++) {
                    targetNulls[index] = sourceNulls[rows[from + index]];
                }
                targetColumn.markMayHaveNulls();
            }
        }
        target.setRowCount(count);
    }

    /** Creates an empty growable batch with the column classes of {@code types}. */
    public static Batch emptyLike(List<dev.parallax.engine.type.DataType> types, int capacity) {
        return Batch.create(new ArrayList<>(types), Math.max(1, capacity));
    }
}
