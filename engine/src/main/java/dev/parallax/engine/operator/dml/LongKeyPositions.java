package dev.parallax.engine.operator.dml;

import java.util.Arrays;

/**
 * An open-addressing map from a long key to the first position put for it, for the referenced keys
 * a statement takes away when the key is one column held as a long (integers, dates, timestamps,
 * decimals of one scale): the scan of the referencing table then looks each row's value up without
 * making a key object per row, as the general path's text keys do.
 */
final class LongKeyPositions {
    private static final int EMPTY = -1;
    private long[] keys;
    private int[] positions;
    private int size;

    LongKeyPositions(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        positions = new int[capacity];
        Arrays.fill(positions, EMPTY);
    }

    /** Maps {@code key} to {@code position} unless it is mapped already. */
    void putIfAbsent(long key, int position) {
        if (size * 2 >= keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
            if (positions[slot] == EMPTY) {
                keys[slot] = key;
                positions[slot] = position;
                size++;
                return;
            }
            if (keys[slot] == key) {
                return;
            }
        }
    }

    /** The position put for {@code key}, or -1. */
    int get(long key) {
        int mask = keys.length - 1;
        for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
            if (positions[slot] == EMPTY) {
                return EMPTY;
            }
            if (keys[slot] == key) {
                return positions[slot];
            }
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    private static int slot(long key, int mask) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32)) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldPositions = positions;
        keys = new long[oldKeys.length * 2];
        positions = new int[oldKeys.length * 2];
        Arrays.fill(positions, EMPTY);
        size = 0;
        for (int slot = 0; slot < oldKeys.length; slot++) {
            if (oldPositions[slot] != EMPTY) {
                putIfAbsent(oldKeys[slot], oldPositions[slot]);
            }
        }
    }
}
