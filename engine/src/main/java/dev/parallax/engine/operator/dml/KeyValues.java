package dev.parallax.engine.operator.dml;

import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Comparisons of the key columns of rows held in batches, without making a key object per row.
 *
 * <p>{@link #equal} and {@link #hash} compare as a unique index of the stored side's types does
 * (the index's {@code KeyEncoder}): longs as they are, doubles with -0 equal to 0 and every NaN
 * equal, bytes as they are except that a character(n) column's trailing blanks do not count. The
 * other side's values must be held as the stored side's types hold them (a foreign key's
 * referencing values converted by {@link ReferencedKeyProbe}, or columns of the same types).
 *
 * <p>{@link #sameRepresentation} tells whether two rows of one table hold the same values, not
 * merely equal ones (-0 differs from 0), as the texts the values print as would: what decides
 * whether an UPDATE changed a key.
 */
final class KeyValues {
    private static final byte BLANK = ' ';

    private KeyValues() {
    }

    /**
     * Whether the key of {@code probe}'s row {@code probeRow} in {@code probeColumns} equals the key
     * of {@code stored}'s row {@code storedRow} in {@code storedColumns}, with the equality of the
     * stored columns' types; no column may be NULL.
     */
    static boolean equal(Batch probe, int probeRow, int[] probeColumns, Batch stored, int storedRow, int[] storedColumns) {
        for (int index = 0; index < storedColumns.length; index++) {
            ColumnVector one = probe.column(probeColumns[index]);
            ColumnVector other = stored.column(storedColumns[index]);
            boolean equal = switch (other) {
                case LongVector longs -> ((LongVector) one).get(probeRow) == longs.get(storedRow);
                case DoubleVector doubles -> canonicalBits(((DoubleVector) one).get(probeRow)) == canonicalBits(doubles.get(storedRow));
                case BytesVector bytes -> equalBytes((BytesVector) one, probeRow, bytes, storedRow, other.type().kind() == TypeKind.CHAR);
            };
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    /**
     * A hash of row {@code row}'s key in {@code columns} agreeing with {@link #equal}: {@code blankPadded[i]}
     * says whether key column {@code i} compares as character(n) does (the stored side's type is).
     */
    static long hash(Batch rows, int row, int[] columns, boolean[] blankPadded) {
        long hash = 0;
        for (int index = 0; index < columns.length; index++) {
            long value = switch (rows.column(columns[index])) {
                case LongVector longs -> longs.get(row);
                case DoubleVector doubles -> canonicalBits(doubles.get(row));
                case BytesVector bytes -> hashBytes(bytes, row, blankPadded[index]);
            };
            hash = (hash + value) * 0x9E3779B97F4A7C15L;
        }
        return hash ^ (hash >>> 29);
    }

    /** Per column of {@code columns}: whether it is character(n), whose equality ignores trailing blanks. */
    static boolean[] blankPadded(Batch rows, int[] columns) {
        boolean[] padded = new boolean[columns.length];
        for (int index = 0; index < columns.length; index++) {
            padded[index] = rows.column(columns[index]).type().kind() == TypeKind.CHAR;
        }
        return padded;
    }

    /**
     * Whether {@code left}'s row in {@code leftColumns} holds the same values as {@code right}'s in
     * {@code rightColumns}, columns of one type pairwise; NULLs are the same as each other.
     */
    static boolean sameRepresentation(Batch left, int leftRow, int[] leftColumns, Batch right, int rightRow, int[] rightColumns) {
        for (int index = 0; index < leftColumns.length; index++) {
            ColumnVector one = left.column(leftColumns[index]);
            ColumnVector other = right.column(rightColumns[index]);
            boolean oneNull = one.isNull(leftRow);
            if (oneNull != other.isNull(rightRow)) {
                return false;
            }
            if (oneNull) {
                continue;
            }
            boolean same = switch (one) {
                case LongVector longs -> longs.get(leftRow) == ((LongVector) other).get(rightRow);
                // doubleToLongBits: every NaN alike (they all print NaN), -0 apart from 0 (it prints -0).
                case DoubleVector doubles -> Double.doubleToLongBits(doubles.get(leftRow)) == Double.doubleToLongBits(((DoubleVector) other).get(rightRow));
                case BytesVector bytes -> equalBytes(bytes, leftRow, (BytesVector) other, rightRow, false);
            };
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static long canonicalBits(double value) {
        return value == 0.0 ? 0L : Double.doubleToLongBits(value);
    }

    private static boolean equalBytes(BytesVector one, int oneRow, BytesVector other, int otherRow, boolean blankPadded) {
        byte[] oneData = one.data();
        byte[] otherData = other.data();
        int oneOffset = one.offset(oneRow);
        int otherOffset = other.offset(otherRow);
        int oneLength = one.length(oneRow);
        int otherLength = other.length(otherRow);
        if (blankPadded) {
            oneLength = withoutTrailingBlanks(oneData, oneOffset, oneLength);
            otherLength = withoutTrailingBlanks(otherData, otherOffset, otherLength);
        }
        return java.util.Arrays.equals(oneData, oneOffset, oneOffset + oneLength, otherData, otherOffset, otherOffset + otherLength);
    }

    private static long hashBytes(BytesVector bytes, int row, boolean blankPadded) {
        byte[] data = bytes.data();
        int offset = bytes.offset(row);
        int length = bytes.length(row);
        if (blankPadded) {
            length = withoutTrailingBlanks(data, offset, length);
        }
        long hash = length;
        for (int index = offset; index < offset + length; index++) {
            hash = hash * 31 + data[index];
        }
        return hash;
    }

    private static int withoutTrailingBlanks(byte[] data, int offset, int length) {
        while (length > 0 && data[offset + length - 1] == BLANK) {
            length--;
        }
        return length;
    }
}
