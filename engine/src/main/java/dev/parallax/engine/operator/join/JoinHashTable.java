package dev.parallax.engine.operator.join;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A finished join hash table over the build rows of one or more {@link JoinBuildPart}s (one per
 * participant that helped build): chained hashing over int arrays, no object per row. A bucket
 * holds the row reference of its chain's first row ({@link JoinRows#NO_ROW} when empty) and
 * {@code next[chunk][row]} the following one; rows with a NULL key are in no chain. Read-only once
 * built, so all participants of a Gather probe it concurrently; only the matched flags of a
 * RIGHT/FULL join are written during the probe, by its single participant.
 */
final class JoinHashTable {
    final Batch[] chunks;
    final int[] chunkRows;
    final long[][] hashes;
    final int[][] next;
    final int[] buckets;
    final int mask;
    final BuildColumn[] columns;
    /** Per chunk, whether each row found a match; only for joins that emit unmatched build rows. */
    final boolean[][] matched;
    final long rowCount;

    private JoinHashTable(List<JoinBuildPart> parts, List<DataType> types, boolean trackMatches) {
        List<Batch> allChunks = new ArrayList<>();
        List<long[]> allHashes = new ArrayList<>();
        List<boolean[]> allNullKeys = new ArrayList<>();
        long rows = 0;
        for (JoinBuildPart part : parts) {
            allChunks.addAll(part.chunks);
            allHashes.addAll(part.hashes);
            allNullKeys.addAll(part.nullKeys);
            rows += part.rows();
        }
        if (allChunks.size() > (1 << (31 - JoinRows.CHUNK_BITS))) {
            throw new IllegalStateException("hash join build side too large: " + rows + " rows");
        }
        this.rowCount = rows;
        this.chunks = allChunks.toArray(new Batch[0]);
        this.hashes = allHashes.toArray(new long[0][]);
        this.chunkRows = new int[chunks.length];
        this.next = new int[chunks.length][];
        // A power of two at least the row count: chains average at most one row per bucket.
        int target = (int) Math.min(1 << 30, Math.max(1, rows));
        this.buckets = new int[target == 1 ? 1 : Integer.highestOneBit(target - 1) << 1];
        Arrays.fill(buckets, JoinRows.NO_ROW);
        this.mask = buckets.length - 1;
        this.matched = trackMatches ? new boolean[chunks.length][] : null;
        for (int chunk = 0; chunk < chunks.length; chunk++) {
            int count = chunks[chunk].rowCount();
            chunkRows[chunk] = count;
            int[] links = new int[count];
            next[chunk] = links;
            if (trackMatches) {
                matched[chunk] = new boolean[count];
            }
            long[] chunkHashes = hashes[chunk];
            boolean[] nullKeys = allNullKeys.get(chunk);
            int base = chunk << JoinRows.CHUNK_BITS;
            for (int row = 0; row < count; row++) {
                if (nullKeys[row]) {
                    links[row] = JoinRows.NO_ROW;
                    continue;
                }
                int bucket = (int) chunkHashes[row] & mask;
                links[row] = buckets[bucket];
                buckets[bucket] = base | row;
            }
        }
        this.columns = new BuildColumn[types.size()];
        for (int column = 0; column < types.size(); column++) {
            columns[column] = BuildColumn.of(chunks, column, ColumnVector.create(types.get(column), 1));
        }
    }

    /** Links the rows of {@code parts} into a table over build columns {@code types}. */
    static JoinHashTable build(List<JoinBuildPart> parts, List<DataType> types, boolean trackMatches) {
        return new JoinHashTable(parts, types, trackMatches);
    }
}
