package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * The fast path for a single key column held as a long (SMALLINT, INTEGER, BIGINT, DATE, TIMESTAMP,
 * DECIMAL, ...): 8-byte keys and values in Chronicle Map, read and written through per-thread
 * {@link LongCell}s, so a lookup neither boxes nor allocates.
 */
public final class LongKeyIndex extends ChronicleUniqueIndex<LongCell> implements LongKeyLookup {
    LongKeyIndex(IndexDefinition definition, MemoryManager memory) {
        super(definition, memory);
        open();
    }

    @Override
    ChronicleMap<LongCell, LongCell> createMap(long entries) {
        return ChronicleMap.of(LongCell.class, LongCell.class)
                .name(definition.constraintName())
                .keyReaderAndDataAccess(LongCellMarshaller.INSTANCE, new LongCellDataAccess())
                .valueMarshallers(LongCellMarshaller.INSTANCE, LongCellMarshaller.INSTANCE)
                .constantKeySizeBySample(new LongCell())
                .constantValueSizeBySample(new LongCell())
                .entries(entries)
                .maxBloatFactor(BLOAT_FACTOR)
                .create();
    }

    @Override
    LongCell newKey() {
        return new LongCell();
    }

    @Override
    boolean loadKey(Batch keys, int[] keyColumns, int position, LongCell key) {
        ColumnVector column = keys.column(keyColumns[0]);
        if (column.isNull(position)) {
            return false;
        }
        key.value = ((LongVector) column).get(position);
        return true;
    }

    /** Row id of {@code key}, or {@link RowIds#ABSENT}. */
    @Override
    public long get(long key) {
        return get(key, null, null);
    }

    @Override
    public long get(long key, Object pointScratch) {
        return get(key, null, pointScratch);
    }

    /**
     * As {@link #get(long, Object)}, running {@code beforeProbe} (null: none) right before the map is
     * read; {@code pointScratch} from {@link #newPointScratch} (null: the thread's).
     */
    public long get(long key, BeforeProbe beforeProbe, Object pointScratch) {
        Scratch<LongCell> holders = scratch(pointScratch);
        holders.key.value = key;
        return getLongKey(holders, key, beforeProbe);
    }

    /**
     * Writes into {@code out[from]} and {@code out[from + 1]} the addresses of the two lines a
     * lookup of {@code key} reads first, for {@link dev.parallax.engine.memory.CacheLinePrefetch}
     * only (see {@link #probeLinesOfLongKey}).
     */
    public void probeLineAddresses(long key, long[] out, int from) {
        probeLinesOfLongKey(key, out, from);
    }

    /** Maps {@code key} to {@code rowId} unless present; returns whether it did. */
    public boolean putIfAbsent(long key, long rowId) {
        Scratch<LongCell> holders = scratch();
        holders.key.value = key;
        return putIfAbsentKey(holders.key, holders.value, rowId);
    }

    /** Points {@code key} at {@code newRowId} if it points at {@code expectedRowId}; returns whether it did. */
    public boolean replace(long key, long expectedRowId, long newRowId) {
        Scratch<LongCell> holders = scratch();
        holders.key.value = key;
        return replaceKey(holders.key, holders.expected, holders.value, expectedRowId, newRowId);
    }

    /** Removes {@code key} if it points at {@code expectedRowId}; returns whether it did. */
    public boolean remove(long key, long expectedRowId) {
        Scratch<LongCell> holders = scratch();
        holders.key.value = key;
        return removeKey(holders.key, holders.expected, expectedRowId);
    }
}
