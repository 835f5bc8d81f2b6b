package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * The rows seen so far, compared on every column as UNION compares them (NULLs equal): keeps, of
 * the live rows of each batch offered, only those equal to no row offered before, in this batch or
 * an earlier one. A recursive UNION's memory of the rows it produced. The table's growth is
 * charged to the memory manager (53200 past the limit). Used by one thread.
 */
public final class DistinctRows implements AutoCloseable {
    private final GroupKeyTable table;
    private final MemoryManager memory;
    private long chargedBytes;
    private int[] groupIds = new int[Batch.DEFAULT_CAPACITY];
    private int[] kept = new int[Batch.DEFAULT_CAPACITY];

    public DistinctRows(List<DataType> types, MemoryManager memory) {
        int[] columns = new int[types.size()];
        for (int column = 0; column < columns.length; column++) {
            columns[column] = column;
        }
        PackedGroupKeyTable packed = PackedGroupKeyTable.tryCreate(columns, types);
        this.table = packed != null ? packed : new SerializedGroupKeyTable(columns, types);
        this.memory = memory;
    }

    /**
     * Narrows the selection of {@code batch} to its rows not seen before (the first of equal rows
     * within it) and remembers them; returns how many are left. The batch may keep an array of
     * this object as its selection: it must not be read after the next call.
     */
    public int keepNew(Batch batch) {
        int count = batch.selectedCount();
        if (groupIds.length < count) {
            groupIds = new int[count];
            kept = new int[count];
        }
        // Group ids are dense in order of first appearance: a row starts a new group exactly when
        // its id is the next unused one.
        int nextNew = table.groupCount();
        table.groupIds(batch, groupIds);
        int keptCount = 0;
        for (int index = 0; index < count; index++) {
            if (groupIds[index] == nextNew) {
                kept[keptCount++] = batch.position(index);
                nextNew++;
            }
        }
        if (keptCount < count) {
            // The batch lives only until its producer's next call, before which this is not called again.
            batch.setSelection(kept, keptCount);
        }
        charge();
        return keptCount;
    }

    private void charge() {
        long bytes = table.memoryBytes();
        if (bytes > chargedBytes) {
            memory.reserve(MemoryTag.HASH_TABLES, bytes - chargedBytes);
            chargedBytes = bytes;
        }
    }

    /** Returns the charged bytes to the memory manager. */
    @Override
    public void close() {
        memory.release(MemoryTag.HASH_TABLES, chargedBytes);
        chargedBytes = 0;
    }
}
