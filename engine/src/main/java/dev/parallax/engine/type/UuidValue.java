package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.UUID;

/**
 * The uuid type's value: its 16 bytes in network order (PostgreSQL's pg_uuid_t), so that comparing
 * two values byte by byte, unsigned, is PostgreSQL's uuid_cmp (memcmp). Text input is PostgreSQL's
 * string_to_uuid, output its lower-case hyphenated form.
 */
public final class UuidValue {
    /** Bytes of one value. */
    public static final int BYTES = 16;
    /** Characters of the text form {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. */
    public static final int TEXT_LENGTH = 36;
    private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

    private UuidValue() {
    }

    /**
     * PostgreSQL's uuid_in: 32 hex digits in either case, optionally inside braces, with a hyphen
     * allowed after any group of four digits (but not after the last); nothing else, not even blanks.
     * Anything else is 22P02 {@code invalid input syntax for type uuid: "..."}.
     */
    public static byte[] parse(CharSequence text) {
        byte[] value = new byte[BYTES];
        int length = text.length();
        int index = 0;
        boolean braces = length > 0 && text.charAt(0) == '{';
        if (braces) {
            index++;
        }
        for (int byteIndex = 0; byteIndex < BYTES; byteIndex++) {
            if (index + 1 >= length) {
                throw invalid(text);
            }
            int high = hexDigit(text.charAt(index));
            int low = hexDigit(text.charAt(index + 1));
            if (high < 0 || low < 0) {
                throw invalid(text);
            }
            value[byteIndex] = (byte) (high << 4 | low);
            index += 2;
            if (index < length && text.charAt(index) == '-' && byteIndex % 2 == 1 && byteIndex < BYTES - 1) {
                index++;
            }
        }
        if (braces) {
            if (index >= length || text.charAt(index) != '}') {
                throw invalid(text);
            }
            index++;
        }
        if (index != length) {
            throw invalid(text);
        }
        return value;
    }

    /** The value of an ASCII hex digit (isxdigit: no other script's digits), or -1. */
    private static int hexDigit(char character) {
        if (character >= '0' && character <= '9') {
            return character - '0';
        }
        if (character >= 'a' && character <= 'f') {
            return character - 'a' + 10;
        }
        if (character >= 'A' && character <= 'F') {
            return character - 'A' + 10;
        }
        return -1;
    }

    private static ParallaxException invalid(CharSequence text) {
        return ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type uuid: \"%s\"", text);
    }

    /** Appends the lower-case hyphenated text form of the value at {@code data[offset, offset + 16)}. */
    public static void append(StringBuilder out, byte[] data, int offset) {
        for (int byteIndex = 0; byteIndex < BYTES; byteIndex++) {
            if (byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10) {
                out.append('-');
            }
            int value = data[offset + byteIndex] & 0xFF;
            out.append(HEX_DIGITS[value >>> 4]).append(HEX_DIGITS[value & 0xF]);
        }
    }

    /** The text form of the value at {@code data[offset, offset + 16)}. */
    public static String toString(byte[] data, int offset) {
        StringBuilder out = new StringBuilder(TEXT_LENGTH);
        append(out, data, offset);
        return out.toString();
    }

    /** The value at {@code data[offset, offset + 16)} as a {@link UUID} (JDBC's getObject). */
    public static UUID toUuid(byte[] data, int offset) {
        return new UUID(longAt(data, offset), longAt(data, offset + Long.BYTES));
    }

    /** The 16 bytes of {@code uuid} (JDBC's setObject). */
    public static byte[] of(UUID uuid) {
        byte[] value = new byte[BYTES];
        putLong(value, 0, uuid.getMostSignificantBits());
        putLong(value, Long.BYTES, uuid.getLeastSignificantBits());
        return value;
    }

    /** Big-endian long at {@code data[offset, offset + 8)}. */
    private static long longAt(byte[] data, int offset) {
        long value = 0;
        for (int index = 0; index < Long.BYTES; index++) {
            value = value << 8 | (data[offset + index] & 0xFF);
        }
        return value;
    }

    /** Writes {@code value} big-endian at {@code data[offset, offset + 8)}. */
    private static void putLong(byte[] data, int offset, long value) {
        for (int index = Long.BYTES - 1; index >= 0; index--) {
            data[offset + index] = (byte) value;
            value >>>= 8;
        }
    }
}
