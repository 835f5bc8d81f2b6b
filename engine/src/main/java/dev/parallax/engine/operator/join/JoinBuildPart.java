package dev.parallax.engine.operator.join;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.util.ArrayList;
import java.util.List;

/**
 * The build rows one participant read: copies of the rows in chunks of up to
 * {@link JoinRows#CHUNK_ROWS}, with each row's key hash and NULL-key flag. Rows with a NULL key
 * are dropped unless the join emits unmatched build rows (they can never match). The bytes it
 * holds are charged to the memory manager (tag HASH_TABLES) as they grow. Used by one thread.
 */
final class JoinBuildPart {
    /** First capacity of a chunk; chunks double up to CHUNK_ROWS so small build sides stay small. */
    private static final int FIRST_CHUNK_ROWS = 1024;

    private final List<DataType> types;
    private final int[] keyColumns;
    private final boolean keepNullKeys;
    private final MemoryManager memory;
    final List<Batch> chunks = new ArrayList<>();
    final List<long[]> hashes = new ArrayList<>();
    final List<boolean[]> nullKeys = new ArrayList<>();
    private Batch current;
    private int currentRows;
    private long reservedBytes;
    private long rows;

    private long[] batchHashes = new long[Batch.DEFAULT_CAPACITY];
    private boolean[] batchNullKeys = new boolean[Batch.DEFAULT_CAPACITY];
    private int[] kept = new int[Batch.DEFAULT_CAPACITY];
    private int[] keptIndexes = new int[Batch.DEFAULT_CAPACITY];

    JoinBuildPart(List<DataType> types, int[] keyColumns, boolean keepNullKeys, MemoryManager memory) {
        this.types = List.copyOf(types);
        this.keyColumns = keyColumns.clone();
        this.keepNullKeys = keepNullKeys;
        this.memory = memory;
    }

    /** Adds the live rows of {@code batch}. */
    void add(Batch batch) {
        int count = batch.selectedCount();
        if (count == 0) {
            return;
        }
        if (batchHashes.length < count) {
            batchHashes = new long[count];
            batchNullKeys = new boolean[count];
            kept = new int[count];
            keptIndexes = new int[count];
        }
        boolean anyNull = JoinKeyHasher.hash(batch, keyColumns, batchHashes, batchNullKeys);
        int keptCount = 0;
        for (int index = 0; index < count; index++) {
            if (anyNull && batchNullKeys[index] && !keepNullKeys) {
                continue;
            }
            kept[keptCount] = batch.position(index);
            keptIndexes[keptCount] = index;
            keptCount++;
        }
        int from = 0;
        while (from < keptCount) {
            if (current == null || currentRows == JoinRows.CHUNK_ROWS) {
                startChunk(Math.min(JoinRows.CHUNK_ROWS, Math.max(FIRST_CHUNK_ROWS, keptCount - from)));
            }
            int slice = Math.min(keptCount - from, JoinRows.CHUNK_ROWS - currentRows);
            ensureChunkCapacity(currentRows + slice);
            charge(batch, from, slice);
            JoinRows.copyRows(batch, kept, from, slice, current, currentRows);
            long[] chunkHashes = hashes.getLast();
            boolean[] chunkNullKeys = nullKeys.getLast();
            for (int index = 0; index < slice; index++) {
                int live = keptIndexes[from + index];
                chunkHashes[currentRows + index] = batchHashes[live];
                chunkNullKeys[currentRows + index] = batchNullKeys[live];
            }
            currentRows += slice;
            current.setRowCount(currentRows);
            from += slice;
            rows += slice;
        }
    }

    private void startChunk(int capacity) {
        current = Batch.create(types, capacity);
        currentRows = 0;
        chunks.add(current);
        hashes.add(new long[capacity]);
        nullKeys.add(new boolean[capacity]);
    }

    private void ensureChunkCapacity(int capacity) {
        long[] chunkHashes = hashes.getLast();
        if (capacity <= chunkHashes.length) {
            return;
        }
        int newCapacity = Math.min(JoinRows.CHUNK_ROWS, Math.max(capacity, chunkHashes.length * 2));
        current.ensureCapacity(newCapacity);
        hashes.set(hashes.size() - 1, java.util.Arrays.copyOf(chunkHashes, newCapacity));
        nullKeys.set(nullKeys.size() - 1, java.util.Arrays.copyOf(nullKeys.getLast(), newCapacity));
    }

    /**
     * Charges the rows about to be copied: per row 8 bytes per fixed-width value, the text bytes
     * plus 8 for offset and length, a NULL flag per column, and the hash, NULL-key flag, chain
     * link and bucket (21 bytes) of the table.
     */
    private void charge(Batch batch, int from, int count) {
        long bytes = (long) count * (21 + 9L * types.size());
        for (int column = 0; column < types.size(); column++) {
            ColumnVector vector = batch.column(column);
            if (vector instanceof BytesVector text) {
                int[] lengths = text.lengths();
                for (int index = from; index < from + count; index++) {
                    bytes += lengths[kept[index]];
                }
            }
        }
        memory.reserve(MemoryTag.HASH_TABLES, bytes);
        reservedBytes += bytes;
    }

    /** Rows held. */
    long rows() {
        return rows;
    }

    /** Bytes charged to the memory manager so far. */
    long reservedBytes() {
        return reservedBytes;
    }

    /** Returns the charged bytes to the memory manager; the rows stay readable (the heap frees them). */
    void release() {
        memory.release(MemoryTag.HASH_TABLES, reservedBytes);
        reservedBytes = 0;
    }
}
