package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * Hashes the group keys of chosen rows so that rows of one group hash equally: the partition
 * function of a spilling hash aggregation. Unlike join keys, a NULL key is a group of its own, so
 * it hashes as a fixed value; -0.0 and 0.0 hash alike, as do all NaNs (as the group key tables
 * compare them). One loop per key column; the type dispatch happens once per column.
 */
final class GroupKeyHasher {
    private static final long SEED = 0x9E3779B97F4A7C15L;
    private static final long NULL_HASH = 0x6A09E667F3BCC909L;

    private GroupKeyHasher() {
    }

    /** Writes into {@code hashes[i]} the hash of the keys of row {@code positions[i]} of {@code batch}. */
    static void hash(Batch batch, int[] keyColumns, int[] positions, int count, long[] hashes) {
        Arrays.fill(hashes, 0, count, SEED);
        for (int keyColumn : keyColumns) {
            ColumnVector column = batch.column(keyColumn);
            boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
            switch (column) {
                case LongVector longs -> {
                    long[] values = longs.values();
                    for (int index = 0; index < count; index++) {
                        int position = positions[index];
                        long value = nulls != null && nulls[position] ? NULL_HASH : values[position];
                        hashes[index] = KeyHashing.mix(hashes[index] * 31 + value);
                    }
                }
                case DoubleVector doubles -> {
                    double[] values = doubles.values();
                    for (int index = 0; index < count; index++) {
                        int position = positions[index];
                        double value = values[position];
                        long bits = nulls != null && nulls[position] ? NULL_HASH : value == 0.0 ? 0L : Double.doubleToLongBits(value);
                        hashes[index] = KeyHashing.mix(hashes[index] * 31 + bits);
                    }
                }
                case BytesVector bytes -> {
                    byte[] data = bytes.data();
                    int[] offsets = bytes.offsets();
                    int[] lengths = bytes.lengths();
                    for (int index = 0; index < count; index++) {
                        int position = positions[index];
                        long value = nulls != null && nulls[position] ? NULL_HASH : hashBytes(data, offsets[position], lengths[position]);
                        hashes[index] = KeyHashing.mix(hashes[index] * 31 + value);
                    }
                }
            }
        }
    }

    /** FNV-1a over the bytes; the caller's mix spreads the result. */
    private static long hashBytes(byte[] data, int offset, int length) {
        long hash = 0xCBF29CE484222325L ^ length;
        for (int index = offset; index < offset + length; index++) {
            hash = (hash ^ data[index]) * 0x100000001B3L;
        }
        return hash;
    }
}
