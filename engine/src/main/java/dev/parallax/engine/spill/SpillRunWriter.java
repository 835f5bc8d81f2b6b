package dev.parallax.engine.spill;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes rows to temporary files in Parallax's spill format (sorted runs of a sort, hash
 * partitions of a join or aggregate): blocks of up to
 * {@link #BLOCK_ROWS} rows, each {@code int blockBytes, int rowCount}, then per column a null
 * flag byte (1: a null bitmap follows, one bit per row), then the values column by column: LONG
 * and DOUBLE columns as 8 bytes per row, BYTES columns as an int length per row followed by all
 * their bytes. Little-endian; columnar so that reading a block back is one tight loop per column.
 */
public final class SpillRunWriter {
    public static final int BLOCK_ROWS = 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] block = new byte[64 * 1024];
    private final int[] sourceOffsets = new int[BLOCK_ROWS];
    private int used;

    /** Writes rows {@code order[0..count)} of {@code rows} to a new {@code file}; returns the bytes written. */
    public long write(Path file, Batch rows, int[] order, int count) {
        try (OutputStream output = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024)) {
            return append(output, file, rows, order, 0, count);
        } catch (IOException failure) {
            throw writeFailure(file, failure);
        }
    }

    /** Appends rows {@code order[from .. from+count)} of {@code rows} to {@code output} in blocks of at most {@link #BLOCK_ROWS}. */
    private long append(OutputStream output, Path file, Batch rows, int[] order, int from, int count) {
        long written = 0;
        try {
            for (int start = from; start < from + count; start += BLOCK_ROWS) {
                int blockRows = Math.min(BLOCK_ROWS, from + count - start);
                encodeBlock(rows, order, start, blockRows);
                output.write(block, 0, used);
                written += used;
            }
        } catch (IOException failure) {
            throw writeFailure(file, failure);
        }
        return written;
    }

    /**
     * Encodes rows {@code order[from .. from+count)} of {@code rows} ({@code count} at most
     * {@link #BLOCK_ROWS}) as one block into {@link #encoded()}; returns its length in bytes.
     */
    int encode(Batch rows, int[] order, int from, int count) {
        encodeBlock(rows, order, from, count);
        return used;
    }

    /** The bytes of the block last encoded (valid until the next call). */
    byte[] encoded() {
        return block;
    }

    static ParallaxException writeFailure(Path file, IOException failure) {
        return new ParallaxException(SqlState.IO_ERROR,
                "could not write to temporary file \"" + file + "\": " + failure.getMessage(), failure);
    }

    private void encodeBlock(Batch rows, int[] order, int from, int count) {
        used = 0;
        reserve(2 * Integer.BYTES);
        used = 2 * Integer.BYTES;
        for (int column = 0; column < rows.columnCount(); column++) {
            ColumnVector vector = rows.column(column);
            boolean hasNulls = encodeNulls(vector, order, from, count);
            switch (vector) {
                case LongVector longs -> {
                    long[] values = longs.values();
                    reserve(count * Long.BYTES);
                    for (int index = 0; index < count; index++) {
                        LONGS.set(block, used + index * Long.BYTES, values[order[from + index]]);
                    }
                    used += count * Long.BYTES;
                }
                case DoubleVector doubles -> {
                    double[] values = doubles.values();
                    reserve(count * Long.BYTES);
                    for (int index = 0; index < count; index++) {
                        LONGS.set(block, used + index * Long.BYTES, Double.doubleToRawLongBits(values[order[from + index]]));
                    }
                    used += count * Long.BYTES;
                }
                case BytesVector bytes -> encodeBytes(bytes, hasNulls ? vector.nulls() : null, order, from, count);
            }
        }
        INTS.set(block, 0, used);
        INTS.set(block, Integer.BYTES, count);
    }

    private boolean encodeNulls(ColumnVector vector, int[] order, int from, int count) {
        boolean[] nulls = vector.nulls();
        boolean hasNulls = false;
        if (vector.mayHaveNulls()) {
            for (int index = 0; index < count && !hasNulls; index++) {
                hasNulls = nulls[order[from + index]];
            }
        }
        reserve(1 + (count + 7) / 8);
        block[used++] = (byte) (hasNulls ? 1 : 0);
        if (hasNulls) {
            int bitmapBytes = (count + 7) / 8;
            Arrays.fill(block, used, used + bitmapBytes, (byte) 0);
            for (int index = 0; index < count; index++) {
                if (nulls[order[from + index]]) {
                    block[used + (index >>> 3)] |= (byte) (1 << (index & 7));
                }
            }
            used += bitmapBytes;
        }
        return hasNulls;
    }

    /**
     * Two passes: the rows' lengths (and their offsets, parked in {@link #sourceOffsets}) first,
     * then the bytes. The rows come in sort order, i.e. as random reads into a large heap; loops
     * without a dependency between iterations let the processor overlap those cache misses.
     */
    private void encodeBytes(BytesVector bytes, boolean[] nulls, int[] order, int from, int count) {
        byte[] data = bytes.data();
        int[] offsets = bytes.offsets();
        int[] lengths = bytes.lengths();
        reserve(count * Integer.BYTES);
        int lengthsAt = used;
        used += count * Integer.BYTES;
        int total = 0;
        for (int index = 0; index < count; index++) {
            int row = order[from + index];
            // A NULL slot's offsets mean nothing: store it empty.
            int length = nulls != null && nulls[row] ? 0 : lengths[row];
            sourceOffsets[index] = offsets[row];
            INTS.set(block, lengthsAt + index * Integer.BYTES, length);
            total += length;
        }
        reserve(total);
        for (int index = 0; index < count; index++) {
            int length = (int) INTS.get(block, lengthsAt + index * Integer.BYTES);
            System.arraycopy(data, sourceOffsets[index], block, used, length);
            used += length;
        }
    }

    private void reserve(int bytes) {
        if (used + bytes > block.length) {
            block = Arrays.copyOf(block, Math.max(used + bytes, block.length * 2));
        }
    }
}
