package dev.parallax.engine.type;

/**
 * A reusable CharSequence over one UTF-8 value at a time, for java.util.regex: each value is
 * decoded into arrays kept from row to row (a Matcher reset on it allocates nothing), and the byte
 * offset of every char is kept so that match bounds map back to the UTF-8 bytes to copy. Malformed
 * bytes decode to U+FFFD one byte each.
 */
public final class Utf8CharSequence implements CharSequence {
    private char[] characters = new char[64];
    /** Byte offset (from the value's start) of each char, and of the end at index {@code length}. */
    private int[] byteOffsets = new int[65];
    private int length;

    /** Makes this sequence the value {@code data[offset, offset + byteLength)}. */
    public void load(byte[] data, int offset, int byteLength) {
        if (characters.length < byteLength) {
            characters = new char[Math.max(byteLength, characters.length * 2)];
            byteOffsets = new int[characters.length + 1];
        }
        int count = 0;
        int index = 0;
        while (index < byteLength) {
            int lead = data[offset + index] & 0xFF;
            int size = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            if (index + size > byteLength) {
                size = 1;
            }
            int codePoint = switch (size) {
                case 1 -> lead < 0x80 ? lead : 0xFFFD;
                case 2 -> (lead & 0x1F) << 6 | data[offset + index + 1] & 0x3F;
                case 3 -> (lead & 0x0F) << 12 | (data[offset + index + 1] & 0x3F) << 6 | data[offset + index + 2] & 0x3F;
                default -> (lead & 0x07) << 18 | (data[offset + index + 1] & 0x3F) << 12
                        | (data[offset + index + 2] & 0x3F) << 6 | data[offset + index + 3] & 0x3F;
            };
            if (codePoint >= 0x10000) {
                byteOffsets[count] = index;
                characters[count++] = Character.highSurrogate(codePoint);
                byteOffsets[count] = index;
                characters[count++] = Character.lowSurrogate(codePoint);
            } else {
                byteOffsets[count] = index;
                characters[count++] = (char) codePoint;
            }
            index += size;
        }
        byteOffsets[count] = byteLength;
        length = count;
    }

    /** The byte offset, from the value's start, of char {@code index} (the value's byte length at {@link #length()}). */
    public int byteOffset(int index) {
        return byteOffsets[index];
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return characters[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(characters, start, end - start);
    }

    @Override
    public String toString() {
        return new String(characters, 0, length);
    }
}
