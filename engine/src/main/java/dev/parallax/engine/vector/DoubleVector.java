package dev.parallax.engine.vector;

import dev.parallax.engine.type.DataType;

import java.util.Arrays;

/** Values held as doubles: REAL and DOUBLE PRECISION. */
public final class DoubleVector extends ColumnVector {
    private double[] values;

    public DoubleVector(DataType type, int capacity) {
        super(type, capacity);
        this.values = new double[capacity];
    }

    public double[] values() {
        return values;
    }

    public double get(int position) {
        return values[position];
    }

    public void set(int position, double value) {
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
            set(toPosition, ((DoubleVector) source).values[fromPosition]);
        }
    }
}
