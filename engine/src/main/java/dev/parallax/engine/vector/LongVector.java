package dev.parallax.engine.vector;

import dev.parallax.engine.type.DataType;

import java.util.Arrays;

/** Values held as longs: integers, booleans, scaled decimals, dates, timestamps, intervals. */
public final class LongVector extends ColumnVector {
    private long[] values;

    public LongVector(DataType type, int capacity) {
        super(type, capacity);
        this.values = new long[capacity];
    }

    public long[] values() {
        return values;
    }

    public long get(int position) {
        return values[position];
    }

    public void set(int position, long value) {
        values[position] = value;
        setNotNull(position);
    }

    @Override
    public int capacity() {
        return values.length;
    }

    @Override
    public void ensureCapacity(int capacity) {
        if (capacity > values.length) {
            int newCapacity = Math.max(capacity, values.length * 2);
            values = Arrays.copyOf(values, newCapacity);
            growNulls(newCapacity);
        }
    }

    @Override
    public void copyFrom(ColumnVector source, int fromPosition, int toPosition) {
        if (source.isNull(fromPosition)) {
            setNull(toPosition);
        } else {
            set(toPosition, ((LongVector) source).values[fromPosition]);
        }
    }
}
