package dev.parallax.engine.operator.join;

import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Writes build rows of a hash join that outgrew its memory into hash partitions (one batch of
 * the Grace join per partition): first the rows already copied into a {@link JoinBuildPart}
 * (their hashes are kept there), then the rest of the build input. Rows with a NULL key are
 * dropped unless the join emits unmatched build rows, as in memory. Used by one thread.
 */
final class JoinBuildPartitioner {
    private final int[] keyColumns;
    private final boolean keepNullKeys;
    private final HashPartitions partitions;
    private long[] hashes = new long[Batch.DEFAULT_CAPACITY];
    private boolean[] nullKeys = new boolean[Batch.DEFAULT_CAPACITY];
    private int[] positions = new int[Batch.DEFAULT_CAPACITY];

    JoinBuildPartitioner(TemporaryDirectory directory, List<DataType> types, int[] keyColumns, boolean keepNullKeys, int level) {
        this.keyColumns = keyColumns;
        this.keepNullKeys = keepNullKeys;
        this.partitions = new HashPartitions(directory, "join-build", types, level);
    }

    /** Writes the rows held by {@code part}; the caller releases the part afterwards. */
    void addPart(JoinBuildPart part) {
        for (int chunk = 0; chunk < part.chunks.size(); chunk++) {
            Batch rows = part.chunks.get(chunk);
            int count = rows.rowCount();
            ensureCapacity(count);
            for (int row = 0; row < count; row++) {
                positions[row] = row;
            }
            partitions.add(rows, positions, part.hashes.get(chunk), count);
        }
    }

    /** Hashes the keys of the live rows of {@code batch} and writes them to their partitions. */
    void add(Batch batch) {
        int count = batch.selectedCount();
        if (count == 0) {
            return;
        }
        ensureCapacity(count);
        boolean anyNull = JoinKeyHasher.hash(batch, keyColumns, hashes, nullKeys);
        int kept = 0;
        for (int index = 0; index < count; index++) {
            if (anyNull && nullKeys[index] && !keepNullKeys) {
                continue;
            }
            positions[kept] = batch.position(index);
            hashes[kept] = hashes[index];
            kept++;
        }
        partitions.add(batch, positions, hashes, kept);
    }

    private void ensureCapacity(int count) {
        if (positions.length < count) {
            positions = new int[count];
            hashes = new long[count];
            nullKeys = new boolean[count];
        }
    }

    /** Ends writing; returns the finished partitions. */
    HashPartitions finish() {
        partitions.finish();
        return partitions;
    }
}
