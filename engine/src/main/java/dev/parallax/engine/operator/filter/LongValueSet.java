package dev.parallax.engine.operator.filter;

import dev.parallax.engine.operator.aggregate.KeyHashing;

/**
 * An immutable set of long values built once and then tested in tight loops by any number of
 * threads. Values spread over a range of at most {@link #MAXIMUM_BITMAP_BITS} (or 64 bits per
 * value) become a bitmap over {@code [minimum, maximum]}: one shift, one load and one bit test
 * per membership check. Others go into an open-addressing table, linear probing at a load factor
 * of at most 1/2.
 */
public final class LongValueSet {
    /** Bitmaps up to 2^20 bits (128 kB) are always taken: still cache-resident, and never slower than hashing. */
    private static final long MAXIMUM_BITMAP_BITS = 1L << 20;
    /** Marks an empty slot of the hash table; the value itself is recorded in {@link #containsEmptyMarker}. */
    private static final long EMPTY = Long.MIN_VALUE;

    private final long minimum;
    private final long range;
    private final long[] bitmap;
    private final long[] slots;
    private final int mask;
    private final boolean containsEmptyMarker;
    private final int size;

    private LongValueSet(long minimum, long range, long[] bitmap, long[] slots, boolean containsEmptyMarker, int size) {
        this.minimum = minimum;
        this.range = range;
        this.bitmap = bitmap;
        this.slots = slots;
        this.mask = slots == null ? 0 : slots.length - 1;
        this.containsEmptyMarker = containsEmptyMarker;
        this.size = size;
    }

    /** The set of {@code values[0 .. count)} (duplicates allowed). */
    public static LongValueSet of(long[] values, int count) {
        if (count == 0) {
            return new LongValueSet(0, 0, new long[0], null, false, 0);
        }
        long minimum = Long.MAX_VALUE;
        long maximum = Long.MIN_VALUE;
        for (int index = 0; index < count; index++) {
            minimum = Math.min(minimum, values[index]);
            maximum = Math.max(maximum, values[index]);
        }
        long span = maximum - minimum;
        if (span >= 0 && span < Math.max(MAXIMUM_BITMAP_BITS, 64L * count)) {
            long range = span + 1;
            long[] bitmap = new long[(int) ((range + 63) >>> 6)];
            for (int index = 0; index < count; index++) {
                long offset = values[index] - minimum;
                bitmap[(int) (offset >>> 6)] |= 1L << offset;
            }
            return new LongValueSet(minimum, range, bitmap, null, false, count);
        }
        int capacity = Integer.highestOneBit(Math.max(2, count) * 2 - 1) << 1;
        long[] slots = new long[capacity];
        java.util.Arrays.fill(slots, EMPTY);
        int mask = capacity - 1;
        boolean containsEmptyMarker = false;
        for (int index = 0; index < count; index++) {
            long value = values[index];
            if (value == EMPTY) {
                containsEmptyMarker = true;
                continue;
            }
            int slot = (int) KeyHashing.mix(value) & mask;
            while (slots[slot] != EMPTY && slots[slot] != value) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = value;
        }
        return new LongValueSet(0, 0, null, slots, containsEmptyMarker, count);
    }

    /** Whether {@code value} is in the set. */
    public boolean contains(long value) {
        if (bitmap != null) {
            long offset = value - minimum;
            // Unsigned: values below the minimum wrap to large offsets and fall outside the range.
            return Long.compareUnsigned(offset, range) < 0 && (bitmap[(int) (offset >>> 6)] & (1L << offset)) != 0;
        }
        if (value == EMPTY) {
            return containsEmptyMarker;
        }
        int slot = (int) KeyHashing.mix(value) & mask;
        while (true) {
            long entry = slots[slot];
            if (entry == value) {
                return true;
            }
            if (entry == EMPTY) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** The number of values the set was built from, duplicates counted. */
    public int sourceCount() {
        return size;
    }
}
