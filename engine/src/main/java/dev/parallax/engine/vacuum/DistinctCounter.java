package dev.parallax.engine.vacuum;

import dev.parallax.engine.sort.HyperLogLog;


/**
 * Counts the distinct values of one column from their 64-bit hashes: exactly (an open-addressing
 * set of hashes) up to {@value #EXACT_LIMIT} distinct values, so small tables get exact figures,
 * then by HyperLogLog (about 1.6% error) without growing further.
 */
final class DistinctCounter {
    static final int EXACT_LIMIT = 1 << 15;
    /** 0 marks an empty slot; a hash of 0 is counted separately. */
    private long[] slots = new long[64];
    private int size;
    private boolean sawZero;
    private HyperLogLog sketch;

    void add(long hash) {
        if (sketch != null) {
            sketch.addHash(hash);
            return;
        }
        if (hash == 0) {
            sawZero = true;
            return;
        }
        int mask = slots.length - 1;
        int slot = (int) (hash ^ (hash >>> 32)) & mask;
        while (slots[slot] != 0) {
            if (slots[slot] == hash) {
                return;
            }
            slot = (slot + 1) & mask;
        }
        slots[slot] = hash;
        size++;
        if (size > EXACT_LIMIT) {
            switchToSketch();
        } else if (size * 2 > slots.length) {
            grow();
        }
    }

    double estimate() {
        if (sketch != null) {
            return sketch.estimate();
        }
        return size + (sawZero ? 1 : 0);
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long hash : old) {
            if (hash != 0) {
                int slot = (int) (hash ^ (hash >>> 32)) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = hash;
            }
        }
    }

    private void switchToSketch() {
        sketch = new HyperLogLog();
        for (long hash : slots) {
            if (hash != 0) {
                sketch.addHash(hash);
            }
        }
        if (sawZero) {
            sketch.addHash(0);
        }
        slots = null;
    }
}
