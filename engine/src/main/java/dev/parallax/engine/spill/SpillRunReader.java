package dev.parallax.engine.spill;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads back rows written by {@link SpillRunWriter}, one block per batch, in the order written.
 * Used by one thread; several readers may read the same finished file at once.
 */
public final class SpillRunReader implements SpillReader {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final Path file;
    private final Batch batch;
    private DataInputStream input;
    private long remainingRows;
    private byte[] block = new byte[64 * 1024];

    /** Opens {@code file}, which holds {@code rowCount} rows of {@code columnTypes}. */
    public SpillRunReader(Path file, long rowCount, List<DataType> columnTypes) {
        this.file = file;
        this.remainingRows = rowCount;
        this.batch = Batch.create(columnTypes, SpillRunWriter.BLOCK_ROWS);
        if (rowCount == 0) {
            // A spill file that never received a row was never created.
            return;
        }
        try {
            this.input = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 32 * 1024));
        } catch (IOException failure) {
            throw readFailure(failure);
        }
    }

    @Override
    public Batch next() {
        if (remainingRows == 0 || input == null) {
            return null;
        }
        try {
            int blockBytes = Integer.reverseBytes(input.readInt());
            if (block.length < blockBytes) {
                block = new byte[Math.max(blockBytes, block.length * 2)];
            }
            INTS.set(block, 0, blockBytes);
            input.readFully(block, Integer.BYTES, blockBytes - Integer.BYTES);
        } catch (IOException failure) {
            throw readFailure(failure);
        }
        int count = (int) INTS.get(block, Integer.BYTES);
        decodeBlock(block, batch);
        remainingRows -= count;
        return batch;
    }

    /** Decodes one whole block (from its length field on) into {@code batch}, which is reset first. */
    static void decodeBlock(byte[] block, Batch batch) {
        int count = (int) INTS.get(block, Integer.BYTES);
        batch.reset();
        int position = 2 * Integer.BYTES;
        for (int column = 0; column < batch.columnCount(); column++) {
            ColumnVector vector = batch.column(column);
            boolean hasNulls = block[position++] != 0;
            int bitmapAt = position;
            if (hasNulls) {
                position += (count + 7) / 8;
            }
            position = decodeValues(block, vector, count, position);
            // Null flags go last: writing a BYTES value marks its position not null.
            if (hasNulls) {
                boolean[] nulls = vector.nulls();
                for (int index = 0; index < count; index++) {
                    nulls[index] = (block[bitmapAt + (index >>> 3)] & (1 << (index & 7))) != 0;
                }
                vector.markMayHaveNulls();
            }
        }
        batch.setRowCount(count);
    }

    private static int decodeValues(byte[] block, ColumnVector vector, int count, int start) {
        int position = start;
        switch (vector) {
            case LongVector longs -> {
                long[] values = longs.values();
                for (int index = 0; index < count; index++) {
                    values[index] = (long) LONGS.get(block, position + index * Long.BYTES);
                }
                position += count * Long.BYTES;
            }
            case DoubleVector doubles -> {
                double[] values = doubles.values();
                for (int index = 0; index < count; index++) {
                    values[index] = Double.longBitsToDouble((long) LONGS.get(block, position + index * Long.BYTES));
                }
                position += count * Long.BYTES;
            }
            case BytesVector bytes -> {
                int lengthsAt = position;
                position += count * Integer.BYTES;
                int total = 0;
                for (int index = 0; index < count; index++) {
                    total += (int) INTS.get(block, lengthsAt + index * Integer.BYTES);
                }
                int dataStart = bytes.reserve(0, total);
                System.arraycopy(block, position, bytes.data(), dataStart, total);
                int[] offsets = bytes.offsets();
                int[] lengths = bytes.lengths();
                int offset = dataStart;
                for (int index = 0; index < count; index++) {
                    int length = (int) INTS.get(block, lengthsAt + index * Integer.BYTES);
                    offsets[index] = offset;
                    lengths[index] = length;
                    offset += length;
                }
                position += total;
            }
        }
        return position;
    }

    private ParallaxException readFailure(IOException failure) {
        return new ParallaxException(SqlState.IO_ERROR,
                "could not read from temporary file \"" + file + "\": " + failure.getMessage(), failure);
    }

    @Override
    public void close() {
        if (input != null) {
            try {
                input.close();
            } catch (IOException ignored) {
                // The file is deleted next; a failed close of a read-only stream loses nothing.
            }
            input = null;
        }
    }
}
