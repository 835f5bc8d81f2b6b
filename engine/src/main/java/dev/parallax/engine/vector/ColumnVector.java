package dev.parallax.engine.vector;

import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.Objects;

/**
 * The values of one column for the positions of a {@link Batch}. Subclasses are final and hold
 * primitive arrays that hot loops read directly (cast once per batch, never per row).
 * Null flags live in {@link #nulls()}; {@link #mayHaveNulls()} is false when no position is null,
 * so kernels can skip the null checks.
 */
public abstract sealed class ColumnVector permits LongVector, DoubleVector, BytesVector {
    private final DataType type;
    protected boolean[] nulls;
    protected boolean mayHaveNulls;

    protected ColumnVector(DataType type, int capacity) {
        this.type = Objects.requireNonNull(type, "type");
        this.nulls = new boolean[capacity];
    }

    public final DataType type() {
        return type;
    }

    /** Positions this vector can hold without growing. */
    public abstract int capacity();

    /** Grows the arrays to hold at least {@code capacity} positions, keeping values. */
    public abstract void ensureCapacity(int capacity);

    /** Null flags by position; only meaningful where {@link #mayHaveNulls()} is true. */
    public final boolean[] nulls() {
        return nulls;
    }

    public final boolean mayHaveNulls() {
        return mayHaveNulls;
    }

    public final boolean isNull(int position) {
        return mayHaveNulls && nulls[position];
    }

    public final void setNull(int position) {
        nulls[position] = true;
        mayHaveNulls = true;
    }

    /** Marks the position as holding a value (after earlier use of the vector). */
    public final void setNotNull(int position) {
        if (mayHaveNulls) {
            nulls[position] = false;
        }
    }

    /** Declares that kernels wrote {@link #nulls()} directly and some flag may be set. */
    public final void markMayHaveNulls() {
        mayHaveNulls = true;
    }

    /** Clears all null flags up to {@code size} so the vector can be refilled. */
    public void reset(int size) {
        if (mayHaveNulls) {
            Arrays.fill(nulls, 0, Math.min(size, nulls.length), false);
            mayHaveNulls = false;
        }
    }

    protected final void growNulls(int capacity) {
        nulls = Arrays.copyOf(nulls, capacity);
    }

    /** Copies the value (or null) at {@code fromPosition} of {@code source} (same class) to {@code toPosition}. */
    public abstract void copyFrom(ColumnVector source, int fromPosition, int toPosition);

    /** Creates an empty vector of the class that holds {@code type}. */
    public static ColumnVector create(DataType type, int capacity) {
        return switch (type.vectorKind()) {
            case LONG -> new LongVector(type, capacity);
            case DOUBLE -> new DoubleVector(type, capacity);
            case BYTES -> new BytesVector(type, capacity);
        };
    }
}
