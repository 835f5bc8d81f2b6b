package dev.parallax.engine.operator.join;

import dev.parallax.engine.operator.aggregate.KeyHashing;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Hashes the join keys of a batch's live rows, one loop per key column (the type dispatch happens
 * once per column and batch). Build and probe side use the same function, so equal keys of the
 * same vector kind hash equally: integers of any width are the same long, -0.0 and 0.0 hash as
 * 0.0, every NaN as one NaN. A row with a NULL in any key is flagged: it never matches.
 */
final class JoinKeyHasher {
    private static final long SEED = 0x9E3779B97F4A7C15L;

    private JoinKeyHasher() {
    }

    /**
     * Writes the hash of live row i (the i-th live position) of {@code batch} into {@code hashes[i]}
     * and whether any of its keys is NULL into {@code nullKey[i]}; with no key columns every hash is 0.
     * Returns whether any row has a NULL key.
     */
    static boolean hash(Batch batch, int[] keyColumns, long[] hashes, boolean[] nullKey) {
        int count = batch.selectedCount();
        int[] selection = batch.selection();
        java.util.Arrays.fill(nullKey, 0, count, false);
        if (keyColumns.length == 0) {
            java.util.Arrays.fill(hashes, 0, count, 0L);
            return false;
        }
        java.util.Arrays.fill(hashes, 0, count, SEED);
        boolean anyNull = false;
        for (int keyColumn : keyColumns) {
            ColumnVector column = batch.column(keyColumn);
            switch (column) {
                case LongVector longs -> hashLongs(longs.values(), selection, count, hashes);
                case DoubleVector doubles -> hashDoubles(doubles.values(), selection, count, hashes);
                case BytesVector bytes -> hashBytes(bytes, selection, count, hashes);
            }
            if (column.mayHaveNulls()) {
                boolean[] nulls = column.nulls();
                for (int index = 0; index < count; index++) {
                    if (nulls[selection == null ? index : selection[index]]) {
                        nullKey[index] = true;
                        anyNull = true;
                    }
                }
            }
        }
        return anyNull;
    }

    private static void hashLongs(long[] values, int[] selection, int count, long[] hashes) {
        if (selection == null) {
            for (int index = 0; index < count; index++) {
                hashes[index] = KeyHashing.mix(hashes[index] * 31 + values[index]);
            }
        } else {
            for (int index = 0; index < count; index++) {
                hashes[index] = KeyHashing.mix(hashes[index] * 31 + values[selection[index]]);
            }
        }
    }

    private static void hashDoubles(double[] values, int[] selection, int count, long[] hashes) {
        for (int index = 0; index < count; index++) {
            double value = values[selection == null ? index : selection[index]];
            long bits = value == 0.0 ? 0L : Double.doubleToLongBits(value);
            hashes[index] = KeyHashing.mix(hashes[index] * 31 + bits);
        }
    }

    private static void hashBytes(BytesVector bytes, int[] selection, int count, long[] hashes) {
        byte[] data = bytes.data();
        int[] offsets = bytes.offsets();
        int[] lengths = bytes.lengths();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            hashes[index] = KeyHashing.mix(hashes[index] * 31 + hashBytes(data, offsets[position], lengths[position]));
        }
    }

    /** FNV-1a over the bytes; the caller's mix spreads the result. */
    static long hashBytes(byte[] data, int offset, int length) {
        long hash = 0xCBF29CE484222325L ^ length;
        for (int index = offset; index < offset + length; index++) {
            hash = (hash ^ data[index]) * 0x100000001B3L;
        }
        return hash;
    }
}
