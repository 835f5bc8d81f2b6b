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
    private long[] packed = new long[0];
    private long[] groupKeys = new long[64];
    private int size;
    private int[] slots = new int[128];
    private int mask = 127;

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

    @Override
    public void groupIds(Batch batch, int[] groupIds) {
        int count = pack(batch);
        long[] packed = this.packed;
        for (int index = 0; index < count; index++) {
            groupIds[index] = findOrInsert(packed[index]);
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
        return (long) slots.length * Integer.BYTES + (long) groupKeys.length * Long.BYTES;
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
        int slot = (int) KeyHashing.mix(key) & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if (groupKeys[entry - 1] == key) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int findOrInsert(long key) {
        int slot = (int) KeyHashing.mix(key) & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                break;
            }
            if (groupKeys[entry - 1] == key) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
        int group = size++;
        if (group == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, group * 2);
        }
        groupKeys[group] = key;
        slots[slot] = group + 1;
        if (size * 2 > slots.length) {
            grow();
        }
        return group;
    }

    private void grow() {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int group = 0; group < size; group++) {
            int slot = (int) KeyHashing.mix(groupKeys[group]) & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = group + 1;
        }
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
