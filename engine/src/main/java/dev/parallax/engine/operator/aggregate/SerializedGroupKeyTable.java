package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Group keys of any types, serialized per row into bytes (per key: a null flag, then 8 bytes for
 * numbers or a 4-byte length and the bytes of text and bit strings) and looked up in a
 * {@link ByteKeyHashTable}. Serialization runs column by column over the batch: one pass sums the
 * row lengths, a second writes each column into every row's slot.
 */
final class SerializedGroupKeyTable implements GroupKeyTable {
    private final int[] keyColumns;
    private final ByteKeyHashTable table = new ByteKeyHashTable();
    private int[] rowOffsets = new int[0];
    private int[] rowEnds = new int[0];
    private byte[] rows = new byte[0];

    SerializedGroupKeyTable(int[] keyColumns, List<DataType> keyTypes) {
        this.keyColumns = keyColumns.clone();
    }

    @Override
    public void groupIds(Batch batch, int[] groupIds) {
        int count = serialize(batch);
        for (int index = 0; index < count; index++) {
            groupIds[index] = table.findOrInsert(rows, rowOffsets[index], rowEnds[index] - rowOffsets[index]);
        }
    }

    @Override
    public void findGroupIds(Batch batch, int[] groupIds) {
        int count = serialize(batch);
        for (int index = 0; index < count; index++) {
            groupIds[index] = table.find(rows, rowOffsets[index], rowEnds[index] - rowOffsets[index]);
        }
    }

    @Override
    public long memoryBytes() {
        return table.memoryBytes();
    }

    /** Serializes the keys of the live rows into {@code rows}, row i at {@code rowOffsets[i] .. rowEnds[i]}; returns the count. */
    private int serialize(Batch batch) {
        int count = batch.selectedCount();
        int[] selection = batch.selection();
        if (rowOffsets.length < count + 1) {
            rowOffsets = new int[count + 1];
            rowEnds = new int[count + 1];
        }
        java.util.Arrays.fill(rowEnds, 0, count, 0);
        for (int keyColumn : keyColumns) {
            ColumnVector column = batch.column(keyColumn);
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                rowEnds[index] += 1 + (column.isNull(position) ? 0
                        : column instanceof BytesVector bytes ? 4 + bytes.length(position) : 8);
            }
        }
        int total = 0;
        for (int index = 0; index < count; index++) {
            rowOffsets[index] = total;
            total += rowEnds[index];
            rowEnds[index] = rowOffsets[index];
        }
        if (rows.length < total) {
            rows = new byte[Math.max(total, rows.length * 2)];
        }
        for (int keyColumn : keyColumns) {
            writeColumn(batch.column(keyColumn), selection, count);
        }
        return count;
    }

    private void writeColumn(ColumnVector column, int[] selection, int count) {
        byte[] rows = this.rows;
        int[] ends = rowEnds;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int at = ends[index];
            if (column.isNull(position)) {
                rows[at] = 1;
                ends[index] = at + 1;
                continue;
            }
            rows[at++] = 0;
            switch (column) {
                case LongVector longs -> at = writeLong(rows, at, longs.get(position));
                case DoubleVector doubles -> {
                    double value = doubles.get(position);
                    // -0.0 and 0.0 are the same group, as are all NaNs (doubleToLongBits canonicalizes NaN).
                    at = writeLong(rows, at, value == 0.0 ? 0L : Double.doubleToLongBits(value));
                }
                case BytesVector bytes -> {
                    int length = bytes.length(position);
                    at = writeInt(rows, at, length);
                    System.arraycopy(bytes.data(), bytes.offset(position), rows, at, length);
                    at += length;
                }
            }
            ends[index] = at;
        }
    }

    private static int writeInt(byte[] target, int at, int value) {
        target[at] = (byte) (value >>> 24);
        target[at + 1] = (byte) (value >>> 16);
        target[at + 2] = (byte) (value >>> 8);
        target[at + 3] = (byte) value;
        return at + 4;
    }

    private static int writeLong(byte[] target, int at, long value) {
        writeInt(target, at, (int) (value >>> 32));
        return writeInt(target, at + 4, (int) value);
    }

    private static long readLong(byte[] source, int at) {
        return ((long) readInt(source, at) << 32) | (readInt(source, at + 4) & 0xFFFFFFFFL);
    }

    private static int readInt(byte[] source, int at) {
        return ((source[at] & 0xFF) << 24) | ((source[at + 1] & 0xFF) << 16) | ((source[at + 2] & 0xFF) << 8) | (source[at + 3] & 0xFF);
    }

    @Override
    public int groupCount() {
        return table.size();
    }

    @Override
    public void writeKeys(int firstGroup, int count, ColumnVector[] out) {
        byte[] data = table.keyData();
        for (int index = 0; index < count; index++) {
            int at = table.keyOffset(firstGroup + index);
            for (int key = 0; key < keyColumns.length; key++) {
                ColumnVector target = out[key];
                if (data[at++] == 1) {
                    target.setNull(index);
                    continue;
                }
                switch (target) {
                    case LongVector longs -> longs.set(index, readLong(data, at));
                    case DoubleVector doubles -> doubles.set(index, Double.longBitsToDouble(readLong(data, at)));
                    case BytesVector bytes -> {
                        int length = readInt(data, at);
                        at += 4;
                        bytes.set(index, data, at, length);
                        at += length - 8;
                    }
                }
                at += 8;
            }
        }
    }
}
