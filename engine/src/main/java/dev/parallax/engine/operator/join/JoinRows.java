package dev.parallax.engine.operator.join;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Row movement of the join operators: one type dispatch per column, then a loop over primitive
 * arrays. Build rows are addressed by a <em>row reference</em>, {@code chunk << CHUNK_BITS | row},
 * so that the participants of a Parallel Hash can each fill chunks of their own and the table
 * joins them without copying; -1 stands for "no row" (the NULL side of an outer join).
 */
final class JoinRows {
    /** Rows per build chunk: 65,536, so references reach 32,768 chunks (2^31 rows). */
    static final int CHUNK_BITS = 16;
    static final int CHUNK_ROWS = 1 << CHUNK_BITS;
    static final int ROW_MASK = CHUNK_ROWS - 1;
    static final int NO_ROW = -1;

    private JoinRows() {
    }

    /** Copies rows {@code positions[from .. from+count)} of {@code source} to {@code target} at {@code targetStart..}. */
    static void copyRows(Batch source, int[] positions, int from, int count, Batch target, int targetStart) {
        for (int column = 0; column < source.columnCount(); column++) {
            ColumnVector sourceColumn = source.column(column);
            ColumnVector targetColumn = target.column(column);
            switch (sourceColumn) {
                case LongVector longs -> {
                    long[] values = longs.values();
                    long[] to = ((LongVector) targetColumn).values();
                    for (int index = 0; index < count; index++) {
                        to[targetStart + index] = values[positions[from + index]];
                    }
                }
                case DoubleVector doubles -> {
                    double[] values = doubles.values();
                    double[] to = ((DoubleVector) targetColumn).values();
                    for (int index = 0; index < count; index++) {
                        to[targetStart + index] = values[positions[from + index]];
                    }
                }
                case BytesVector bytes -> {
                    BytesVector to = (BytesVector) targetColumn;
                    byte[] data = bytes.data();
                    int[] offsets = bytes.offsets();
                    int[] lengths = bytes.lengths();
                    for (int index = 0; index < count; index++) {
                        int position = positions[from + index];
                        to.set(targetStart + index, data, offsets[position], lengths[position]);
                    }
                }
            }
            boolean[] targetNulls = targetColumn.nulls();
            if (sourceColumn.mayHaveNulls()) {
                boolean[] nulls = sourceColumn.nulls();
                boolean any = false;
                for (int index = 0; index < count; index++) {
                    boolean isNull = nulls[positions[from + index]];
                    targetNulls[targetStart + index] = isNull;
                    any |= isNull;
                }
                if (any) {
                    targetColumn.markMayHaveNulls();
                }
            } else if (targetColumn.mayHaveNulls()) {
                java.util.Arrays.fill(targetNulls, targetStart, targetStart + count, false);
            }
        }
    }

    /**
     * Writes {@code source} at {@code positions[0 .. count)} into positions {@code 0 .. count} of
     * {@code target}; a position of -1 writes NULL.
     */
    static void gatherProbe(ColumnVector source, int[] positions, int count, ColumnVector target) {
        target.ensureCapacity(count);
        boolean[] sourceNulls = source.mayHaveNulls() ? source.nulls() : null;
        boolean[] targetNulls = target.nulls();
        boolean any = false;
        switch (source) {
            case LongVector longs -> {
                long[] values = longs.values();
                long[] to = ((LongVector) target).values();
                for (int index = 0; index < count; index++) {
                    int position = positions[index];
                    boolean isNull = position < 0 || sourceNulls != null && sourceNulls[position];
                    to[index] = position < 0 ? 0 : values[position];
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
            case DoubleVector doubles -> {
                double[] values = doubles.values();
                double[] to = ((DoubleVector) target).values();
                for (int index = 0; index < count; index++) {
                    int position = positions[index];
                    boolean isNull = position < 0 || sourceNulls != null && sourceNulls[position];
                    to[index] = position < 0 ? 0 : values[position];
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
            case BytesVector bytes -> {
                BytesVector to = (BytesVector) target;
                byte[] data = bytes.data();
                int[] offsets = bytes.offsets();
                int[] lengths = bytes.lengths();
                for (int index = 0; index < count; index++) {
                    int position = positions[index];
                    boolean isNull = position < 0 || sourceNulls != null && sourceNulls[position];
                    if (isNull) {
                        to.set(index, data, 0, 0);
                    } else {
                        to.set(index, data, offsets[position], lengths[position]);
                    }
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
        }
        if (any) {
            target.markMayHaveNulls();
        }
    }

    /** Writes build column {@code source} at row references {@code refs[0 .. count)} (-1: NULL) into {@code target}. */
    static void gatherBuild(BuildColumn source, int[] refs, int count, ColumnVector target) {
        target.ensureCapacity(count);
        boolean[][] chunkNulls = source.nulls();
        boolean[] targetNulls = target.nulls();
        boolean any = false;
        switch (target) {
            case LongVector longs -> {
                long[][] values = source.longs();
                long[] to = longs.values();
                for (int index = 0; index < count; index++) {
                    int ref = refs[index];
                    if (ref < 0) {
                        targetNulls[index] = true;
                        any = true;
                        continue;
                    }
                    int chunk = ref >>> CHUNK_BITS;
                    int row = ref & ROW_MASK;
                    to[index] = values[chunk][row];
                    boolean[] nulls = chunkNulls[chunk];
                    boolean isNull = nulls != null && nulls[row];
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
            case DoubleVector doubles -> {
                double[][] values = source.doubles();
                double[] to = doubles.values();
                for (int index = 0; index < count; index++) {
                    int ref = refs[index];
                    if (ref < 0) {
                        targetNulls[index] = true;
                        any = true;
                        continue;
                    }
                    int chunk = ref >>> CHUNK_BITS;
                    int row = ref & ROW_MASK;
                    to[index] = values[chunk][row];
                    boolean[] nulls = chunkNulls[chunk];
                    boolean isNull = nulls != null && nulls[row];
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
            case BytesVector to -> {
                BytesVector[] chunks = source.bytes();
                for (int index = 0; index < count; index++) {
                    int ref = refs[index];
                    int chunk = ref >>> CHUNK_BITS;
                    int row = ref & ROW_MASK;
                    boolean isNull = ref < 0 || chunkNulls[chunk] != null && chunkNulls[chunk][row];
                    if (isNull) {
                        to.reserve(index, 0);
                    } else {
                        BytesVector from = chunks[chunk];
                        to.set(index, from.data(), from.offset(row), from.length(row));
                    }
                    targetNulls[index] = isNull;
                    any |= isNull;
                }
            }
        }
        if (any) {
            target.markMayHaveNulls();
        }
    }
}
