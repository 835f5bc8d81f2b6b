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
     * A new batch holding copies of the live rows of every batch of {@code sources} (at least one,
     * all of the same column types), in order, without selection. Its vectors and byte heaps are
     * allocated at their final sizes: no value is copied twice.
     */
    public static Batch concatenate(List<Batch> sources) {
        Batch first = sources.getFirst();
        int rows = 0;
        for (Batch source : sources) {
            rows += source.selectedCount();
        }
        ColumnVector[] columns = new ColumnVector[first.columnCount()];
        for (int index = 0; index < columns.length; index++) {
            columns[index] = ColumnVector.create(first.column(index).type(), Math.max(1, rows));
            if (columns[index] instanceof BytesVector bytes) {
                long total = 0;
                for (Batch source : sources) {
                    total += liveBytes(source, index);
                }
                bytes.ensureDataCapacity((int) Math.min(Integer.MAX_VALUE - 8, total));
            }
        }
        Batch copy = new Batch(columns);
        int at = 0;
        for (Batch source : sources) {
            appendLiveRows(source, copy, at);
            at += source.selectedCount();
        }
        copy.setRowCount(rows);
        return copy;
    }

    /** The bytes of the live, non-NULL values of {@code source}'s byte column {@code column}. */
    private static long liveBytes(Batch source, int column) {
        BytesVector bytes = (BytesVector) source.column(column);
        int[] lengths = bytes.lengths();
        boolean[] nulls = bytes.mayHaveNulls() ? bytes.nulls() : null;
        long total = 0;
        for (int index = 0; index < source.selectedCount(); index++) {
            int position = source.position(index);
            total += nulls != null && nulls[position] ? 0 : lengths[position];
        }
        return total;
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
            case BytesVector bytes -> appendBytes(bytes, selection, count, (BytesVector) target, targetStart);
        }
        copyNulls(source, selection, count, target, targetStart);
    }

    /** Appends the values in one reservation of the target's byte heap (a NULL slot's offsets mean nothing: it gets an empty value). */
    private static void appendBytes(BytesVector source, int[] selection, int count, BytesVector target, int targetStart) {
        byte[] data = source.data();
        int[] offsets = source.offsets();
        int[] lengths = source.lengths();
        boolean[] nulls = source.mayHaveNulls() ? source.nulls() : null;
        int total = 0;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            total += nulls != null && nulls[position] ? 0 : lengths[position];
        }
        int offset = target.reserveBytes(total);
        byte[] to = target.data();
        int[] toOffsets = target.offsets();
        int[] toLengths = target.lengths();
        if (selection == null && nulls == null && count > 0 && backToBack(offsets, lengths, count, total)) {
            // The values lie in one piece (as a page read or an earlier append leaves them): one copy.
            System.arraycopy(data, offsets[0], to, offset, total);
            int shift = offset - offsets[0];
            for (int index = 0; index < count; index++) {
                toOffsets[targetStart + index] = offsets[index] + shift;
            }
            System.arraycopy(lengths, 0, toLengths, targetStart, count);
            return;
        }
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int length = nulls != null && nulls[position] ? 0 : lengths[position];
            System.arraycopy(data, offsets[position], to, offset, length);
            toOffsets[targetStart + index] = offset;
            toLengths[targetStart + index] = length;
            offset += length;
        }
    }

    /** True when values {@code 0..count-1} follow each other in the heap without gaps, {@code total} bytes in all. */
    private static boolean backToBack(int[] offsets, int[] lengths, int count, int total) {
        for (int position = 1; position < count; position++) {
            if (offsets[position - 1] + lengths[position - 1] != offsets[position]) {
                return false;
            }
        }
        return offsets[count - 1] + lengths[count - 1] - offsets[0] == total;
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
                case BytesVector bytes -> gatherBytes(bytes, rows, from, count, (BytesVector) targetColumn);
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

    /**
     * Two passes: the rows' offsets and lengths first (parked in the target's arrays), then the
     * bytes. Rows in sort order are random reads into a large heap; loops without a dependency
     * between iterations let the processor overlap those cache misses.
     */
    private static void gatherBytes(BytesVector source, int[] rows, int from, int count, BytesVector target) {
        int[] offsets = source.offsets();
        int[] lengths = source.lengths();
        boolean[] nulls = source.mayHaveNulls() ? source.nulls() : null;
        int[] toOffsets = target.offsets();
        int[] toLengths = target.lengths();
        int total = 0;
        for (int index = 0; index < count; index++) {
            int row = rows[from + index];
            int length = nulls != null && nulls[row] ? 0 : lengths[row];
            toOffsets[index] = offsets[row];
            toLengths[index] = length;
            total += length;
        }
        int offset = target.reserveBytes(total);
        byte[] data = source.data();
        byte[] to = target.data();
        for (int index = 0; index < count; index++) {
            int length = toLengths[index];
            System.arraycopy(data, toOffsets[index], to, offset, length);
            toOffsets[index] = offset;
            offset += length;
        }
    }

    /** Creates an empty growable batch with the column classes of {@code types}. */
    public static Batch emptyLike(List<dev.parallax.engine.type.DataType> types, int capacity) {
        return Batch.create(new ArrayList<>(types), Math.max(1, capacity));
    }
}
