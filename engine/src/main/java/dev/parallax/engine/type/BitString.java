package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

/**
 * Encoding of BIT(n) / BIT VARYING values as bytes: a 4-byte big-endian bit count, then the bits
 * packed most significant bit first, the unused low bits of the last byte zero. Comparing two
 * encodings of equal length byte by byte (unsigned) orders them as PostgreSQL orders bit strings.
 */
public final class BitString {
    public static final int HEADER_BYTES = 4;

    private BitString() {
    }

    /** Parses a literal body of 0s and 1s, as in {@code B'0101'}. */
    public static byte[] parse(CharSequence bits) {
        int bitCount = bits.length();
        byte[] encoded = new byte[HEADER_BYTES + (bitCount + 7) / 8];
        writeBitCount(encoded, bitCount);
        for (int bit = 0; bit < bitCount; bit++) {
            char character = bits.charAt(bit);
            if (character == '1') {
                encoded[HEADER_BYTES + bit / 8] |= (byte) (0x80 >>> (bit % 8));
            } else if (character != '0') {
                throw ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION,
                        "\"%c\" is not a valid binary digit", character);
            }
        }
        return encoded;
    }

    public static int bitCount(byte[] data, int offset) {
        return ((data[offset] & 0xFF) << 24) | ((data[offset + 1] & 0xFF) << 16)
                | ((data[offset + 2] & 0xFF) << 8) | (data[offset + 3] & 0xFF);
    }

    public static void writeBitCount(byte[] data, int bitCount) {
        data[0] = (byte) (bitCount >>> 24);
        data[1] = (byte) (bitCount >>> 16);
        data[2] = (byte) (bitCount >>> 8);
        data[3] = (byte) bitCount;
    }

    /** The text form PostgreSQL prints: the digits without the B'' wrapper. */
    public static String toString(byte[] data, int offset, int length) {
        int bitCount = bitCount(data, offset);
        StringBuilder text = new StringBuilder(bitCount);
        for (int bit = 0; bit < bitCount; bit++) {
            int value = data[offset + HEADER_BYTES + bit / 8] & (0x80 >>> (bit % 8));
            text.append(value == 0 ? '0' : '1');
        }
        return text.toString();
    }
}
