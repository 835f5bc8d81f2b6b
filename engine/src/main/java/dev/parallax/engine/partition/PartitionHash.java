package dev.parallax.engine.partition;

import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hash that places a row in a hash partition: one stable, well-mixed 64-bit hash per value,
 * combined over the key columns as PostgreSQL combines them ({@code hash_combine64}, starting
 * from 0 and skipping NULL columns, so an all-NULL key hashes to 0 and lands in the partition of
 * remainder 0). Values that compare equal hash equally: every integer width, dates and timestamps
 * hash their long representation; doubles fold -0 into 0 and every NaN into one; CHAR(n) ignores
 * trailing blanks.
 *
 * <p>The values differ from PostgreSQL's {@code hashint4extended}/{@code hashtextextended}: the
 * same row may land in another remainder than in PostgreSQL. Rows are never moved between
 * databases, so only the rule (hash mod modulus = remainder) has to be PostgreSQL's. The hash is
 * part of the storage contract once tables persist: changing it would misplace existing rows.
 */
public final class PartitionHash {
    /** Mixed into every value so that small integers do not hash to small numbers. */
    private static final long SEED = 0x7A5662DCDF9C3A35L;
    private static final long MULTIPLIER_1 = 0x87C37B91114253D5L;
    private static final long MULTIPLIER_2 = 0x4CF5AD432745937FL;
    private static final VarHandle LONG_LITTLE_ENDIAN = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte BLANK = ' ';

    private PartitionHash() {
    }

    /** The hash of a value held as a long (integers, decimals, dates, timestamps, booleans, intervals). */
    public static long ofLong(long value) {
        return finish(value ^ SEED);
    }

    /** The hash of a double, equal for values PostgreSQL calls equal (-0 = 0, NaN = NaN). */
    public static long ofDouble(double value) {
        long bits = value == 0.0 ? 0L : Double.doubleToLongBits(value);
        return finish(bits ^ SEED);
    }

    /** The hash of {@code length} bytes of {@code data} from {@code offset}. */
    public static long ofBytes(byte[] data, int offset, int length) {
        long hash = SEED ^ (length * 0x9E3779B97F4A7C15L);
        int index = 0;
        for (; index + Long.BYTES <= length; index += Long.BYTES) {
            long word = (long) LONG_LITTLE_ENDIAN.get(data, offset + index);
            hash = Long.rotateLeft(hash ^ (word * MULTIPLIER_1), 31) * MULTIPLIER_2;
        }
        long tail = 0;
        for (int shift = 0; index < length; index++, shift += Byte.SIZE) {
            tail |= (data[offset + index] & 0xFFL) << shift;
        }
        hash ^= Long.rotateLeft(tail * MULTIPLIER_1, 33) * MULTIPLIER_2;
        return finish(hash);
    }

    /** PostgreSQL's {@code hash_combine64}: folds {@code next} into the running {@code hash}. */
    public static long combine(long hash, long next) {
        return hash ^ (next + 0x49A0F4DD15E5A8E5L + (hash << 54) + (hash >>> 7));
    }

    /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
    private static long finish(long value) {
        long mixed = value;
        mixed ^= mixed >>> 33;
        mixed *= 0xFF51AFD7ED558CCDL;
        mixed ^= mixed >>> 33;
        mixed *= 0xC4CEB93FE1A85EC3L;
        mixed ^= mixed >>> 33;
        return mixed;
    }

    /**
     * Folds the values of {@code column} (of kind {@code kind}) at every live row of {@code batch}
     * into {@code hashes[position]}; NULLs leave the hash unchanged. One type dispatch per batch,
     * then a loop over the column's arrays.
     */
    public static void combineColumn(Batch batch, ColumnVector column, TypeKind kind, long[] hashes) {
        int count = batch.selectedCount();
        boolean nulls = column.mayHaveNulls();
        switch (column) {
            case LongVector longs -> {
                long[] values = longs.values();
                for (int index = 0; index < count; index++) {
                    int position = batch.position(index);
                    if (!nulls || !column.isNull(position)) {
                        hashes[position] = combine(hashes[position], ofLong(values[position]));
                    }
                }
            }
            case DoubleVector doubles -> {
                for (int index = 0; index < count; index++) {
                    int position = batch.position(index);
                    if (!nulls || !column.isNull(position)) {
                        hashes[position] = combine(hashes[position], ofDouble(doubles.get(position)));
                    }
                }
            }
            case BytesVector bytes -> {
                byte[] data = bytes.data();
                boolean blankPadded = kind == TypeKind.CHAR;
                for (int index = 0; index < count; index++) {
                    int position = batch.position(index);
                    if (nulls && column.isNull(position)) {
                        continue;
                    }
                    int offset = bytes.offset(position);
                    int length = bytes.length(position);
                    if (blankPadded) {
                        while (length > 0 && data[offset + length - 1] == BLANK) {
                            length--;
                        }
                    }
                    hashes[position] = combine(hashes[position], ofBytes(data, offset, length));
                }
            }
        }
    }
}
