package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * A value known at compile time (a literal, a bound parameter, or a folded subexpression). Kernels
 * look for this class when compiling to pick their column-with-constant loops; as a vector it is
 * filled once per capacity, not per batch.
 */
final class ConstantEvaluator extends Evaluator {
    private final Object value;
    private ColumnVector vector;
    private int filled;

    ConstantEvaluator(Object value, DataType type) {
        super(type);
        this.value = value;
        this.vector = ColumnVector.create(type, 1);
    }

    /** The value in the engine's representation (Long, Double, byte[]), or null for SQL NULL. */
    Object value() {
        return value;
    }

    boolean isNull() {
        return value == null;
    }

    long longValue() {
        return ((Number) value).longValue();
    }

    double doubleValue() {
        return ((Number) value).doubleValue();
    }

    byte[] bytesValue() {
        return (byte[]) value;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        int needed = Math.max(1, input.rowCount());
        if (needed > filled) {
            vector.ensureCapacity(needed);
            fill(vector.capacity());
        }
        return vector;
    }

    private void fill(int capacity) {
        if (value == null) {
            for (int position = 0; position < capacity; position++) {
                vector.setNull(position);
            }
        } else {
            switch (vector) {
                case LongVector longs -> Arrays.fill(longs.values(), 0, capacity, longValue());
                case DoubleVector doubles -> Arrays.fill(doubles.values(), 0, capacity, doubleValue());
                case BytesVector bytes -> {
                    bytes.reset(capacity);
                    byte[] data = bytesValue();
                    int offset = bytes.reserve(0, data.length);
                    System.arraycopy(data, 0, bytes.data(), offset, data.length);
                    Arrays.fill(bytes.offsets(), 0, capacity, offset);
                    Arrays.fill(bytes.lengths(), 0, capacity, data.length);
                }
            }
        }
        filled = capacity;
    }
}
