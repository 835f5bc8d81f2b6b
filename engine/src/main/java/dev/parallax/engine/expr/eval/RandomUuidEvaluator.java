package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.UuidValue;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.security.SecureRandom;

/**
 * gen_random_uuid(): a version 4 UUID per row. PostgreSQL draws its bytes from pg_strong_random, so
 * they come from {@link SecureRandom} here too (a guessable generator would make guessable keys);
 * one draw fills the whole batch's bytes, then each value gets its version and variant bits.
 */
final class RandomUuidEvaluator extends Evaluator {
    private final SecureRandom generator = new SecureRandom();
    private final ColumnVector output;
    private byte[] randomBytes = new byte[0];

    RandomUuidEvaluator() {
        super(DataType.UUID);
        this.output = ColumnVector.create(DataType.UUID, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = (BytesVector) prepare(output, input);
        int bytes = count * UuidValue.BYTES;
        if (randomBytes.length != bytes) {
            randomBytes = new byte[bytes];
        }
        generator.nextBytes(randomBytes);
        for (int index = 0; index < count; index++) {
            int offset = index * UuidValue.BYTES;
            // RFC 4122: version 4 in the high nibble of byte 6, variant 10 in the high bits of byte 8.
            randomBytes[offset + 6] = (byte) (randomBytes[offset + 6] & 0x0F | 0x40);
            randomBytes[offset + 8] = (byte) (randomBytes[offset + 8] & 0x3F | 0x80);
            result.set(selection == null ? index : selection[index], randomBytes, offset, UuidValue.BYTES);
        }
        return result;
    }
}
