package dev.parallax.engine.spill;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Rows split by hash into {@link #PARTITION_COUNT} temporary files: the spill of a hash join's
 * build or probe side, or of a hash aggregation's input (Grace partitioning). Partition
 * {@code p} at recursion level {@code L} holds the rows whose hash has {@code p} in bits
 * {@code [64 - 5(L+1), 64 - 5L)}; a partition that is still too big is split again at level
 * {@code L+1} on the next five bits, so that each level sees fresh bits (in-memory hash tables
 * use the low bits). All partitions share one file of blocks (each partition knows its blocks'
 * offsets), created on the first row. Written by one thread; then read by any number.
 */
public final class HashPartitions {
    public static final int PARTITION_BITS = 5;
    public static final int PARTITION_COUNT = 1 << PARTITION_BITS;
    /** The deepest level that still has fresh hash bits; a partition there is processed in memory whatever its size. */
    public static final int MAXIMUM_LEVEL = 64 / PARTITION_BITS - 1;

    private final SpillFile[] files = new SpillFile[PARTITION_COUNT];
    private final Path path;
    private final SpillRunWriter writer = new SpillRunWriter();
    private OutputStream output;
    private long written;
    private boolean finished;
    private final int level;
    private final int[] starts = new int[PARTITION_COUNT + 1];
    private int[] ordered = new int[Batch.DEFAULT_CAPACITY];
    private int[] partitionOf = new int[Batch.DEFAULT_CAPACITY];

    /**
     * @param name  names the file ({@code <name>-<n>.bin})
     * @param types the column types of the rows
     * @param level the recursion level, 0 for the first split of an operator's input
     */
    public HashPartitions(TemporaryDirectory directory, String name, List<DataType> types, int level) {
        if (level < 0 || level > MAXIMUM_LEVEL) {
            throw new IllegalArgumentException("partition level " + level + " is outside 0.." + MAXIMUM_LEVEL);
        }
        this.level = level;
        this.path = directory.newFile(name);
        List<DataType> columnTypes = List.copyOf(types);
        for (int partition = 0; partition < PARTITION_COUNT; partition++) {
            files[partition] = new SpillFile(this, columnTypes);
        }
    }

    /** The partition of a row with hash {@code hash} at {@code level}. */
    public static int partition(long hash, int level) {
        return (int) (hash >>> (64 - PARTITION_BITS * (level + 1))) & (PARTITION_COUNT - 1);
    }

    /** The recursion level these partitions split at. */
    public int level() {
        return level;
    }

    /**
     * Appends rows {@code positions[0 .. count)} of {@code rows} (positions, the batch's selection
     * ignored), {@code hashes[i]} being the hash of row {@code positions[i]}. Rows keep their
     * relative order within a partition.
     */
    public void add(Batch rows, int[] positions, long[] hashes, int count) {
        if (ordered.length < count) {
            ordered = new int[count];
            partitionOf = new int[count];
        }
        int[] counts = starts;
        Arrays.fill(counts, 0);
        int shift = 64 - PARTITION_BITS * (level + 1);
        for (int index = 0; index < count; index++) {
            int partition = (int) (hashes[index] >>> shift) & (PARTITION_COUNT - 1);
            partitionOf[index] = partition;
            counts[partition + 1]++;
        }
        for (int partition = 0; partition < PARTITION_COUNT; partition++) {
            counts[partition + 1] += counts[partition];
        }
        // counts[p] now is partition p's first slot; filling advances it to partition p+1's first.
        for (int index = 0; index < count; index++) {
            ordered[counts[partitionOf[index]]++] = positions[index];
        }
        int from = 0;
        for (int partition = 0; partition < PARTITION_COUNT; partition++) {
            int end = counts[partition];
            for (int start = from; start < end; start += SpillRunWriter.BLOCK_ROWS) {
                int blockRows = Math.min(SpillRunWriter.BLOCK_ROWS, end - start);
                int length = writer.encode(rows, ordered, start, blockRows);
                write(writer.encoded(), length);
                files[partition].addBlock(written - length, length, blockRows);
            }
            from = end;
        }
    }

    private void write(byte[] block, int length) {
        try {
            if (output == null) {
                output = new BufferedOutputStream(Files.newOutputStream(path), 64 * 1024);
            }
            output.write(block, 0, length);
        } catch (IOException failure) {
            throw SpillRunWriter.writeFailure(path, failure);
        }
        written += length;
    }

    /** Ends writing; the partitions can be read afterwards. Idempotent. */
    public void finish() {
        finished = true;
        if (output == null) {
            return;
        }
        OutputStream stream = output;
        output = null;
        try {
            stream.close();
        } catch (IOException failure) {
            throw SpillRunWriter.writeFailure(path, failure);
        }
    }

    boolean finished() {
        return finished;
    }

    Path path() {
        return path;
    }

    /** Partition {@code partition}'s file. */
    public SpillFile file(int partition) {
        return files[partition];
    }

    /** Rows written to all partitions. */
    public long rowCount() {
        long rows = 0;
        for (SpillFile file : files) {
            rows += file.rowCount();
        }
        return rows;
    }

    /** Bytes written to all partitions. */
    public long bytes() {
        long bytes = 0;
        for (SpillFile file : files) {
            bytes += file.bytes();
        }
        return bytes;
    }

    /** Deletes the file once no partition will be read again (its directory goes with the operator anyway). */
    public void delete() {
        try {
            finish();
        } finally {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // The directory's removal at the operator's close retries it.
            }
        }
    }
}
