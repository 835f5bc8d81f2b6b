package dev.parallax.engine.spill;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Reads given blocks of a spill file by position (one partition of a {@link HashPartitions} file). */
final class SpillBlockReader implements SpillReader {
    private final Path file;
    private final long[] offsets;
    private final int[] lengths;
    private final int blockCount;
    private final Batch batch;
    private FileChannel channel;
    private byte[] block = new byte[0];
    private int nextBlock;

    SpillBlockReader(Path file, long[] offsets, int[] lengths, int blockCount, List<DataType> columnTypes) {
        this.file = file;
        this.offsets = offsets;
        this.lengths = lengths;
        this.blockCount = blockCount;
        this.batch = Batch.create(columnTypes, SpillRunWriter.BLOCK_ROWS);
    }

    @Override
    public Batch next() {
        if (nextBlock == blockCount) {
            return null;
        }
        int length = lengths[nextBlock];
        long position = offsets[nextBlock];
        nextBlock++;
        if (block.length < length) {
            block = new byte[Math.max(length, 2 * block.length)];
        }
        try {
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.READ);
            }
            ByteBuffer buffer = ByteBuffer.wrap(block, 0, length);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new IOException("unexpected end of file");
                }
            }
        } catch (IOException failure) {
            throw new ParallaxException(SqlState.IO_ERROR,
                    "could not read from temporary file \"" + file + "\": " + failure.getMessage(), failure);
        }
        SpillRunReader.decodeBlock(block, batch);
        return batch;
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // The file is deleted with its directory; a failed close of a read-only channel loses nothing.
            }
            channel = null;
        }
    }
}
