package dev.parallax.engine.operator.aggregate;

import java.util.Arrays;

/**
 * Open-addressing hash table from byte-string keys to dense ids 0, 1, 2… in insertion order.
 * Keys live back to back in one byte array; slots hold id + 1 (0 = empty) and the full hash of
 * each id is kept so that growing never rehashes key bytes. Linear probing, load factor 1/2.
 */
final class ByteKeyHashTable {
    private byte[] keyData = new byte[1024];
    private int keyDataUsed;
    private int[] keyOffsets = new int[64];
    private int[] keyLengths = new int[64];
    private int[] hashes = new int[64];
    private int size;
    private int[] slots = new int[128];
    private int mask = 127;
    private boolean inserted;

    /** The id of the key {@code bytes[offset .. offset+length)}, or -1 when absent. */
    int find(byte[] bytes, int offset, int length) {
        int hash = hash(bytes, offset, length);
        int slot = hash & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            int id = entry - 1;
            if (hashes[id] == hash && Arrays.equals(keyData, keyOffsets[id], keyOffsets[id] + keyLengths[id], bytes, offset, offset + length)) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Heap bytes held: the key bytes and the per-id and slot arrays. */
    long memoryBytes() {
        return keyData.length + 3L * Integer.BYTES * keyOffsets.length + (long) Integer.BYTES * slots.length;
    }

    /** The id of the key {@code bytes[offset .. offset+length)}, adding it when absent. */
    int findOrInsert(byte[] bytes, int offset, int length) {
        int hash = hash(bytes, offset, length);
        int slot = hash & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                break;
            }
            int id = entry - 1;
            if (hashes[id] == hash && Arrays.equals(keyData, keyOffsets[id], keyOffsets[id] + keyLengths[id], bytes, offset, offset + length)) {
                inserted = false;
                return id;
            }
            slot = (slot + 1) & mask;
        }
        int id = size++;
        if (id == keyOffsets.length) {
            int capacity = keyOffsets.length * 2;
            keyOffsets = Arrays.copyOf(keyOffsets, capacity);
            keyLengths = Arrays.copyOf(keyLengths, capacity);
            hashes = Arrays.copyOf(hashes, capacity);
        }
        if (keyDataUsed + length > keyData.length) {
            keyData = Arrays.copyOf(keyData, Math.max(keyDataUsed + length, keyData.length * 2));
        }
        System.arraycopy(bytes, offset, keyData, keyDataUsed, length);
        keyOffsets[id] = keyDataUsed;
        keyLengths[id] = length;
        hashes[id] = hash;
        keyDataUsed += length;
        slots[slot] = id + 1;
        inserted = true;
        if (size * 2 > slots.length) {
            grow();
        }
        return id;
    }

    /** Whether the last {@link #findOrInsert} added its key. */
    boolean lastInserted() {
        return inserted;
    }

    int size() {
        return size;
    }

    byte[] keyData() {
        return keyData;
    }

    int keyOffset(int id) {
        return keyOffsets[id];
    }

    int keyLength(int id) {
        return keyLengths[id];
    }

    private void grow() {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int slot = hashes[id] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id + 1;
        }
    }

    private static int hash(byte[] bytes, int offset, int length) {
        long hash = 0x9E3779B97F4A7C15L ^ length;
        for (int index = 0; index < length; index++) {
            hash = (hash ^ bytes[offset + index]) * 0x100000001B3L;
        }
        return (int) KeyHashing.mix(hash);
    }
}
