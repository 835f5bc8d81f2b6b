package dev.parallax.engine.type;

import java.util.Arrays;

/**
 * A reusable, growable byte buffer in which an evaluator builds one value at a time (then copies
 * it into its output vector): rows allocate nothing once the buffer has grown to the longest value.
 */
public final class ByteBuilder {
    private byte[] bytes = new byte[64];
    private int length;

    public void clear() {
        length = 0;
    }

    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }

    public void append(byte value) {
        if (length == bytes.length) {
            bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[length++] = value;
    }

    public void append(byte[] source, int offset, int count) {
        if (length + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + count, bytes.length * 2));
        }
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    /** Appends ASCII text (names, signs), one byte per char. */
    public void appendAscii(String text) {
        for (int index = 0; index < text.length(); index++) {
            append((byte) text.charAt(index));
        }
    }

    /** Appends a non-negative number in decimal, zero-padded to at least {@code width} digits. */
    public void appendPadded(long value, int width) {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int pad = digits; pad < width; pad++) {
            append((byte) '0');
        }
        int end = length + digits;
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(end, bytes.length * 2));
        }
        long rest = value;
        for (int index = end - 1; index >= length; index--) {
            bytes[index] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length = end;
    }
}
