package dev.parallax.engine.operator;

import dev.parallax.engine.type.TypeKind;

/**
 * Orderings of variable-width values, as PostgreSQL compares them under the C collation: text by
 * unsigned bytes, bit strings by their bits then their length.
 */
public final class ValueComparison {
    private ValueComparison() {
    }

    /** Compares two byte ranges as unsigned bytes, shorter first on a common prefix. */
    public static int compareBytes(byte[] left, int leftOffset, int leftLength, byte[] right, int rightOffset, int rightLength) {
        return java.util.Arrays.compareUnsigned(left, leftOffset, leftOffset + leftLength, right, rightOffset, rightOffset + rightLength);
    }

    /** Compares two values of {@code kind} (a BYTES kind) in PostgreSQL's order. */
    public static int compare(TypeKind kind, byte[] left, int leftOffset, int leftLength, byte[] right, int rightOffset, int rightLength) {
        if (!kind.isBitString()) {
            return compareBytes(left, leftOffset, leftLength, right, rightOffset, rightLength);
        }
        // BitString layout: 4-byte big-endian bit length, then the bits; PostgreSQL's bit_cmp
        // compares the common bytes first and only then the lengths (padding bits are zero).
        int leftBytes = leftLength - 4;
        int rightBytes = rightLength - 4;
        int common = Math.min(leftBytes, rightBytes);
        int order = compareBytes(left, leftOffset + 4, common, right, rightOffset + 4, common);
        if (order != 0) {
            return order;
        }
        return Integer.compare(bitLength(left, leftOffset), bitLength(right, rightOffset));
    }

    private static int bitLength(byte[] data, int offset) {
        return ((data[offset] & 0xFF) << 24) | ((data[offset + 1] & 0xFF) << 16) | ((data[offset + 2] & 0xFF) << 8) | (data[offset + 3] & 0xFF);
    }
}
