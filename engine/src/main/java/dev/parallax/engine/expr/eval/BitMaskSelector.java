package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code bitand(x, mask) = expected} (also written {@code (x & mask) = expected}) on bit strings,
 * fused: one pass over each value's bytes, 8 at a time, with nothing materialized. This is the
 * tag-matching filter of the seed article's parallel scan experiment. Semantics as the unfused
 * form: a NULL value is not selected; a value whose length differs from the mask raises 22026;
 * an expected value of another length than the mask matches nothing (bit strings of different
 * lengths are never equal).
 */
final class BitMaskSelector extends Selector {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final Evaluator operand;
    private final byte[] mask;
    private final byte[] expected;
    private final int maskBits;
    private final boolean lengthsAgree;

    BitMaskSelector(Evaluator operand, byte[] mask, byte[] expected) {
        this.operand = operand;
        this.mask = mask;
        this.expected = expected;
        this.maskBits = BitString.bitCount(mask, 0);
        this.lengthsAgree = expected.length == mask.length && BitString.bitCount(expected, 0) == maskBits;
    }

    @Override
    int select(Batch input, int[] selection, int count, int[] out) {
        BytesVector vector = (BytesVector) operand.evaluate(input, selection, count);
        byte[] data = vector.data();
        int[] offsets = vector.offsets();
        int[] lengths = vector.lengths();
        boolean checkNulls = vector.mayHaveNulls();
        boolean[] nulls = vector.nulls();
        int selected = 0;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (checkNulls && nulls[position]) {
                continue;
            }
            int offset = offsets[position];
            if (lengths[position] != mask.length || BitString.bitCount(data, offset) != maskBits) {
                throw ParallaxException.of(SqlState.STRING_DATA_LENGTH_MISMATCH, "cannot AND bit strings of different sizes");
            }
            out[selected] = position;
            selected += lengthsAgree && matches(data, offset) ? 1 : 0;
        }
        return selected;
    }

    /** (value & mask) == expected over the bit bytes (the 4-byte length header is already equal). */
    private boolean matches(byte[] data, int offset) {
        int length = mask.length;
        int index = BitString.HEADER_BYTES;
        for (; index + Long.BYTES <= length; index += Long.BYTES) {
            long value = (long) LONGS.get(data, offset + index);
            if ((value & (long) LONGS.get(mask, index)) != (long) LONGS.get(expected, index)) {
                return false;
            }
        }
        for (; index < length; index++) {
            if ((data[offset + index] & mask[index]) != expected[index]) {
                return false;
            }
        }
        return true;
    }
}
