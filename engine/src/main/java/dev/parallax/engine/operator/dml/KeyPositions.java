package dev.parallax.engine.operator.dml;

import dev.parallax.engine.vector.Batch;

import java.util.Arrays;

/**
 * An open-addressing map from the key of a row of {@code rows} (in {@code columns}) to the first
 * position put with that key, compared as {@link KeyValues#equal} does: the keys of any columns,
 * held in the batch rather than copied into key objects. {@code rows} must not change while the map
 * is used (its vectors are read again on each lookup, so a batch grown meanwhile is still read right).
 */
final class KeyPositions {
    private static final int EMPTY = -1;
    private final Batch rows;
    private final int[] columns;
    private final boolean[] blankPadded;
    private long[] hashes;
    private int[] positions;
    private int size;

    KeyPositions(Batch rows, int[] columns, int expected) {
        this.rows = rows;
        this.columns = columns.clone();
        this.blankPadded = KeyValues.blankPadded(rows, columns);
        int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        hashes = new long[capacity];
        positions = new int[capacity];
        Arrays.fill(positions, EMPTY);
    }

    /** Maps the key of row {@code position} (no column NULL) to it unless the key is mapped already. */
    void putIfAbsent(int position) {
        if (size * 2 >= positions.length) {
            grow();
        }
        insert(KeyValues.hash(rows, position, columns, blankPadded), position);
    }

    private void insert(long hash, int position) {
        int mask = positions.length - 1;
        for (int slot = slot(hash, mask); ; slot = (slot + 1) & mask) {
            if (positions[slot] == EMPTY) {
                hashes[slot] = hash;
                positions[slot] = position;
                size++;
                return;
            }
            if (hashes[slot] == hash && KeyValues.equal(rows, position, columns, rows, positions[slot], columns)) {
                return;
            }
        }
    }

    /**
     * The position put with the key that {@code probe}'s row {@code probeRow} holds in
     * {@code probeColumns} (no column NULL, values held as {@code rows}' columns hold them), or -1.
     */
    int get(Batch probe, int probeRow, int[] probeColumns) {
        long hash = KeyValues.hash(probe, probeRow, probeColumns, blankPadded);
        int mask = positions.length - 1;
        for (int slot = slot(hash, mask); ; slot = (slot + 1) & mask) {
            if (positions[slot] == EMPTY) {
                return EMPTY;
            }
            if (hashes[slot] == hash && KeyValues.equal(probe, probeRow, probeColumns, rows, positions[slot], columns)) {
                return positions[slot];
            }
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    private static int slot(long hash, int mask) {
        return (int) (hash ^ (hash >>> 32)) & mask;
    }

    private void grow() {
        long[] oldHashes = hashes;
        int[] oldPositions = positions;
        hashes = new long[oldHashes.length * 2];
        positions = new int[oldHashes.length * 2];
        Arrays.fill(positions, EMPTY);
        size = 0;
        for (int slot = 0; slot < oldHashes.length; slot++) {
            if (oldPositions[slot] != EMPTY) {
                // Keys held are distinct: placed again without comparing.
                int mask = positions.length - 1;
                int target = slot(oldHashes[slot], mask);
                while (positions[target] != EMPTY) {
                    target = (target + 1) & mask;
                }
                hashes[target] = oldHashes[slot];
                positions[target] = oldPositions[slot];
                size++;
            }
        }
    }
}
