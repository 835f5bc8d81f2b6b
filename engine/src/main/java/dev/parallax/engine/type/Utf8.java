package dev.parallax.engine.type;

/**
 * Characters of UTF-8 text held as bytes (how the engine stores text): counting, finding the byte
 * offset of a character, decoding and encoding one code point, in place and without allocating.
 * A character starts at every byte that is not a continuation byte (10xxxxxx), as PostgreSQL's
 * pg_mblen counts them; malformed bytes count as one character each.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** Whether {@code value} starts a character (is not a continuation byte). */
    public static boolean startsCharacter(byte value) {
        return (value & 0xC0) != 0x80;
    }

    /** Characters in {@code data[offset, offset + length)}. */
    public static int characterCount(byte[] data, int offset, int length) {
        int characters = 0;
        for (int index = offset; index < offset + length; index++) {
            characters += (data[index] & 0xC0) != 0x80 ? 1 : 0;
        }
        return characters;
    }

    /** Byte offset (from {@code offset}) of the character number {@code characters} (0-based), clamped to the range's end. */
    public static int byteOffsetOf(byte[] data, int offset, int length, long characters) {
        int index = offset;
        int end = offset + length;
        long seen = 0;
        while (index < end) {
            if ((data[index] & 0xC0) != 0x80) {
                if (seen == characters) {
                    return index - offset;
                }
                seen++;
            }
            index++;
        }
        return length;
    }

    /** The end (exclusive) of the character starting at {@code index}, at most {@code end}. */
    public static int characterEnd(byte[] data, int index, int end) {
        int next = index + 1;
        while (next < end && (data[next] & 0xC0) == 0x80) {
            next++;
        }
        return next;
    }

    /** The start of the character that ends (exclusively) at {@code end}, at least {@code start}. */
    public static int characterStart(byte[] data, int start, int end) {
        int index = end - 1;
        while (index > start && (data[index] & 0xC0) == 0x80) {
            index--;
        }
        return index;
    }

    /** The code point of the character {@code data[index, characterEnd)}; a malformed one is its first byte. */
    public static int codePoint(byte[] data, int index, int characterEnd) {
        int lead = data[index] & 0xFF;
        int size = characterEnd - index;
        return switch (size) {
            case 2 -> lead >= 0xC0 ? (lead & 0x1F) << 6 | data[index + 1] & 0x3F : lead;
            case 3 -> lead >= 0xE0 ? (lead & 0x0F) << 12 | (data[index + 1] & 0x3F) << 6 | data[index + 2] & 0x3F : lead;
            case 4 -> lead >= 0xF0 ? (lead & 0x07) << 18 | (data[index + 1] & 0x3F) << 12 | (data[index + 2] & 0x3F) << 6
                    | data[index + 3] & 0x3F : lead;
            default -> lead;
        };
    }

    /** Bytes that encode {@code codePoint} (1 to 4). */
    public static int encodedLength(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    /** Appends {@code codePoint} encoded as UTF-8. */
    public static void append(ByteBuilder out, int codePoint) {
        if (codePoint < 0x80) {
            out.append((byte) codePoint);
        } else if (codePoint < 0x800) {
            out.append((byte) (0xC0 | codePoint >> 6));
            out.append((byte) (0x80 | codePoint & 0x3F));
        } else if (codePoint < 0x10000) {
            out.append((byte) (0xE0 | codePoint >> 12));
            out.append((byte) (0x80 | codePoint >> 6 & 0x3F));
            out.append((byte) (0x80 | codePoint & 0x3F));
        } else {
            out.append((byte) (0xF0 | codePoint >> 18));
            out.append((byte) (0x80 | codePoint >> 12 & 0x3F));
            out.append((byte) (0x80 | codePoint >> 6 & 0x3F));
            out.append((byte) (0x80 | codePoint & 0x3F));
        }
    }

    /** Whether the range holds only ASCII bytes (one byte per character). */
    public static boolean isAscii(byte[] data, int offset, int length) {
        for (int index = offset; index < offset + length; index++) {
            if (data[index] < 0) {
                return false;
            }
        }
        return true;
    }
}
