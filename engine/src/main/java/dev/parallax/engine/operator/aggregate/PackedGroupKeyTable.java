package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;
import java.util.List;

/**
 * Group keys that together fit in 64 bits, packed into one long per row so that the hash table
 * compares one long (TPC-H Q1 groups by two char(1) columns). Small integers take their width
 * plus a null bit; a one-character text takes 32 bits (its UTF-8 bytes, left-aligned: text never
 * contains a zero byte, so the length is implied) with all ones, never valid UTF-8, meaning NULL.
 * Per batch: one loop per key column packs the keys, then one probe loop assigns group ids.
 */
final class PackedGroupKeyTable implements GroupKeyTable {
    private static final long TEXT_NULL = 0xFFFFFFFFL;

    private final int[] keyColumns;
    private final boolean[] textKey;
    private final int[] valueBits;
    private final int[] shifts;
    private final long[] biases;
    private static final int INITIAL_SLOTS = 128;

    private long[] packed = new long[0];
    private long[] groupKeys = new long[64];
    private int size;
    /**
     * Slot {@code i} is {@code entries[2i]} (the packed key) and {@code entries[2i+1]} (its group
     * + 1, 0 when empty): a probe reads one 16-byte pair, one cache line, instead of a slot and
     * then the group's key elsewhere. Q18's 1.5M groups of l_orderkey miss the cache on every
     * probe, so the second miss of the former int-slot layout was about half the probe time.
     */
    private long[] entries = new long[2 * INITIAL_SLOTS];
    private int mask = INITIAL_SLOTS - 1;

    private PackedGroupKeyTable(int[] keyColumns, boolean[] textKey, int[] valueBits, int[] shifts, long[] biases) {
        this.keyColumns = keyColumns;
        this.textKey = textKey;
        this.valueBits = valueBits;
        this.shifts = shifts;
        this.biases = biases;
    }

    /** A table for these key types, or null when they do not fit in 64 bits. */
    static PackedGroupKeyTable tryCreate(int[] keyColumns, List<DataType> keyTypes) {
        int keyCount = keyColumns.length;
        boolean[] textKey = new boolean[keyCount];
        int[] valueBits = new int[keyCount];
        int[] shifts = new int[keyCount];
        long[] biases = new long[keyCount];
        int usedBits = 0;
        for (int key = 0; key < keyCount; key++) {
            DataType type = keyTypes.get(key);
            int fieldBits;
            switch (type.kind()) {
                case BOOLEAN -> {
                    valueBits[key] = 1;
                    fieldBits = 2;
                }
                case SMALLINT -> {
                    valueBits[key] = 16;
                    biases[key] = 1L << 15;
                    fieldBits = 17;
                }
                case INTEGER, DATE -> {
                    valueBits[key] = 32;
                    biases[key] = 1L << 31;
                    fieldBits = 33;
                }
                case CHAR, VARCHAR -> {
                    if (type.length() != 1) {
                        return null;
                    }
                    textKey[key] = true;
                    valueBits[key] = 32;
                    fieldBits = 32;
                }
                default -> {
                    return null;
                }
            }
            shifts[key] = usedBits;
            usedBits += fieldBits;
            if (usedBits > 64) {
                return null;
            }
        }
        return new PackedGroupKeyTable(keyColumns.clone(), textKey, valueBits, shifts, biases);
    }

    /**
     * Rows with the key of the row before reuse its group without a probe: input clustered by the
     * key (lineitem by l_orderkey, ~4 rows per order in TPC-H Q18) then probes once per run.
     * (Touching the slot of a row 8 ahead to overlap cache misses was tried and showed no gain in
     * a 1.5M-group microbenchmark on this loaded 2-core machine, so the loop stays plain.)
     */
    @Override
    public void groupIds(Batch batch, int[] groupIds) {
        int count = pack(batch);
        long[] packed = this.packed;
        long previousKey = 0;
        int previousGroup = -1;
        for (int index = 0; index < count; index++) {
            long key = packed[index];
            if (key != previousKey || previousGroup < 0) {
                previousGroup = findOrInsert(key);
                previousKey = key;
            }
            groupIds[index] = previousGroup;
        }
    }

    @Override
    public void findGroupIds(Batch batch, int[] groupIds) {
        int count = pack(batch);
        long[] packed = this.packed;
        for (int index = 0; index < count; index++) {
            groupIds[index] = find(packed[index]);
        }
    }

    @Override
    public long memoryBytes() {
        return (long) entries.length * Long.BYTES + (long) groupKeys.length * Long.BYTES;
    }

    /** Packs the keys of the live rows into {@code packed[0 .. count)}; returns the count. */
    private int pack(Batch batch) {
        int count = batch.selectedCount();
        if (packed.length < count) {
            packed = new long[Math.max(count, Batch.DEFAULT_CAPACITY)];
        }
        long[] packed = this.packed;
        Arrays.fill(packed, 0, count, 0L);
        int[] selection = batch.selection();
        for (int key = 0; key < keyColumns.length; key++) {
            ColumnVector column = batch.column(keyColumns[key]);
            if (textKey[key]) {
                packText((BytesVector) column, selection, count, shifts[key], packed);
            } else {
                packLong((LongVector) column, selection, count, key, packed);
            }
        }
        return count;
    }

    private void packLong(LongVector column, int[] selection, int count, int key, long[] packed) {
        long[] values = column.values();
        long bias = biases[key];
        int shift = shifts[key];
        long valueMask = valueBits[key] == 64 ? -1L : (1L << valueBits[key]) - 1;
        if (selection == null && !column.mayHaveNulls()) {
            for (int index = 0; index < count; index++) {
                packed[index] |= ((values[index] + bias) & valueMask) << shift;
            }
            return;
        }
        boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
        long nullBit = 1L << (shift + valueBits[key]);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (nulls != null && nulls[position]) {
                packed[index] |= nullBit;
            } else {
                packed[index] |= ((values[position] + bias) & valueMask) << shift;
            }
        }
    }

    private static void packText(BytesVector column, int[] selection, int count, int shift, long[] packed) {
        byte[] data = column.data();
        int[] offsets = column.offsets();
        int[] lengths = column.lengths();
        boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            long field;
            if (nulls != null && nulls[position]) {
                field = TEXT_NULL;
            } else {
                field = 0;
                int offset = offsets[position];
                int length = Math.min(4, lengths[position]);
                for (int byteIndex = 0; byteIndex < length; byteIndex++) {
                    field |= (long) (data[offset + byteIndex] & 0xFF) << (24 - 8 * byteIndex);
                }
            }
            packed[index] |= field << shift;
        }
    }

    private int find(long key) {
        long[] entries = this.entries;
        int slot = (int) KeyHashing.mix(key) & mask;
        while (true) {
            long group = entries[2 * slot + 1];
            if (group == 0) {
                return -1;
            }
            if (entries[2 * slot] == key) {
                return (int) group - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int findOrInsert(long key) {
        long[] entries = this.entries;
        int slot = (int) KeyHashing.mix(key) & mask;
        while (true) {
            long group = entries[2 * slot + 1];
            if (group == 0) {
                break;
            }
            if (entries[2 * slot] == key) {
                return (int) group - 1;
            }
            slot = (slot + 1) & mask;
        }
        int group = size++;
        if (group == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, group * 2);
        }
        groupKeys[group] = key;
        entries[2 * slot] = key;
        entries[2 * slot + 1] = group + 1;
        if (size * 2 > mask + 1) {
            grow();
        }
        return group;
    }

    /**
     * Doubles the table, moving the entries in the old table's slot order: an entry's new slot is
     * (without collisions) its old slot or that plus the old size, so the writes advance through
     * two sequential regions instead of jumping randomly (Q18: the growth of the 1.5M-group tables
     * took a third of the table time when reinserting in group order).
     */
    private void grow() {
        long[] old = entries;
        int slotCount = (mask + 1) * 2;
        long[] grown = new long[2 * slotCount];
        int grownMask = slotCount - 1;
        for (int oldSlot = 0; oldSlot <= mask; oldSlot++) {
            long group = old[2 * oldSlot + 1];
            if (group == 0) {
                continue;
            }
            long key = old[2 * oldSlot];
            int slot = (int) KeyHashing.mix(key) & grownMask;
            while (grown[2 * slot + 1] != 0) {
                slot = (slot + 1) & grownMask;
            }
            grown[2 * slot] = key;
            grown[2 * slot + 1] = group;
        }
        entries = grown;
        mask = grownMask;
    }

    @Override
    public int groupCount() {
        return size;
    }

    @Override
    public void writeKeys(int firstGroup, int count, ColumnVector[] out) {
        byte[] text = new byte[4];
        for (int key = 0; key < keyColumns.length; key++) {
            int shift = shifts[key];
            for (int index = 0; index < count; index++) {
                long packedKey = groupKeys[firstGroup + index];
                if (textKey[key]) {
                    long field = (packedKey >>> shift) & 0xFFFFFFFFL;
                    if (field == TEXT_NULL) {
                        out[key].setNull(index);
                        continue;
                    }
                    int length = 0;
                    while (length < 4 && ((field >>> (24 - 8 * length)) & 0xFF) != 0) {
                        text[length] = (byte) (field >>> (24 - 8 * length));
                        length++;
                    }
                    ((BytesVector) out[key]).set(index, text, 0, length);
                } else {
                    int bits = valueBits[key];
                    if (((packedKey >>> (shift + bits)) & 1) != 0) {
                        out[key].setNull(index);
                    } else {
                        long value = ((packedKey >>> shift) & ((1L << bits) - 1)) - biases[key];
                        ((LongVector) out[key]).set(index, value);
                    }
                }
            }
        }
    }
}
