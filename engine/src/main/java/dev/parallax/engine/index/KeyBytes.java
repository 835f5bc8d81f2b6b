package dev.parallax.engine.index;

import java.util.Arrays;

/**
 * A growable byte buffer holding one encoded key (see {@link KeyEncoder}); reused per thread so
 * text and multi-column keys reach Chronicle Map without a fresh array per row.
 */
final class KeyBytes {
    byte[] data;
    int length;

    KeyBytes(int capacity) {
        this.data = new byte[Math.max(16, capacity)];
    }

    void clear() {
        length = 0;
    }

    void ensureRoom(int extra) {
        if (length + extra > data.length) {
            data = Arrays.copyOf(data, Math.max(length + extra, data.length * 2));
        }
    }

    void putByte(int value) {
        ensureRoom(1);
        data[length++] = (byte) value;
    }

    /** Big-endian, so the encoding is canonical whatever the platform. */
    void putLong(long value) {
        ensureRoom(Long.BYTES);
        for (int shift = 56; shift >= 0; shift -= 8) {
            data[length++] = (byte) (value >>> shift);
        }
    }

    /** Unsigned LEB128 length prefix: one byte for values under 128, which is nearly every key. */
    void putLength(int value) {
        int remaining = value;
        while ((remaining & ~0x7F) != 0) {
            putByte((remaining & 0x7F) | 0x80);
            remaining >>>= 7;
        }
        putByte(remaining);
    }

    void putBytes(byte[] source, int offset, int count) {
        ensureRoom(count);
        System.arraycopy(source, offset, data, length, count);
        length += count;
    }

    void copyFrom(KeyBytes other) {
        clear();
        putBytes(other.data, 0, other.length);
    }
}
