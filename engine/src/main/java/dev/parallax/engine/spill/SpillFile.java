package dev.parallax.engine.spill;

import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * The rows of one hash partition: blocks in the file its {@link HashPartitions} shares among all
 * its partitions, each known by offset and length, so that a split costs one file, not one per
 * partition (opening files dominated small spills). Read any number of times, by any number of
 * readers at once, once writing ended.
 */
public final class SpillFile {
    private final HashPartitions owner;
    private final List<DataType> columnTypes;
    private long[] offsets = new long[8];
    private int[] lengths = new int[8];
    private int blockCount;
    private long rowCount;
    private long bytes;

    SpillFile(HashPartitions owner, List<DataType> columnTypes) {
        this.owner = owner;
        this.columnTypes = columnTypes;
    }

    /** Records a block of {@code rows} rows written at {@code offset}. */
    void addBlock(long offset, int length, int rows) {
        if (blockCount == offsets.length) {
            offsets = Arrays.copyOf(offsets, blockCount * 2);
            lengths = Arrays.copyOf(lengths, blockCount * 2);
        }
        offsets[blockCount] = offset;
        lengths[blockCount] = length;
        blockCount++;
        rowCount += rows;
        bytes += length;
    }

    /** Rows written. */
    public long rowCount() {
        return rowCount;
    }

    /** Bytes written. */
    public long bytes() {
        return bytes;
    }

    /** A reader from the first row; writing must have ended ({@link HashPartitions#finish()}). */
    public SpillReader openReader() {
        if (!owner.finished()) {
            throw new IllegalStateException("spill partition read before writing ended");
        }
        return new SpillBlockReader(owner.path(), offsets, lengths, blockCount, columnTypes);
    }
}
