package dev.parallax.engine.vector;

import dev.parallax.engine.type.DataType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Variable-width values (UTF-8 text, encoded bit strings) packed in one byte array. Value at
 * position {@code p} is {@code data[offsets[p] .. offsets[p] + lengths[p])}. Positions may be
 * written in any order (a kernel writing only selected positions leaves the others untouched);
 * {@link #append} places bytes at the end of the used area.
 */
public final class BytesVector extends ColumnVector {
    private byte[] data;
    private int used;
    private int[] offsets;
    private int[] lengths;

    public BytesVector(DataType type, int capacity) {
        this(type, capacity, Math.max(16, capacity * 16));
    }

    /** A vector of {@code capacity} positions whose byte heap starts with room for {@code dataCapacity} bytes. */
    public BytesVector(DataType type, int capacity, int dataCapacity) {
        super(type, capacity);
        this.data = new byte[Math.max(16, dataCapacity)];
        this.offsets = new int[capacity];
        this.lengths = new int[capacity];
    }

    public byte[] data() {
        return data;
    }

    public int[] offsets() {
        return offsets;
    }

    public int[] lengths() {
        return lengths;
    }

    public int offset(int position) {
        return offsets[position];
    }

    public int length(int position) {
        return lengths[position];
    }

    /** Stores a copy of {@code length} bytes of {@code source} from {@code sourceOffset} at {@code position}. */
    public void set(int position, byte[] source, int sourceOffset, int length) {
        ensureDataCapacity(used + length);
        System.arraycopy(source, sourceOffset, data, used, length);
        offsets[position] = used;
        lengths[position] = length;
        used += length;
        setNotNull(position);
    }

    public void set(int position, byte[] value) {
        set(position, value, 0, value.length);
    }

    /** Reserves {@code length} bytes for {@code position} and returns their offset in {@link #data()}. */
    public int reserve(int position, int length) {
        ensureDataCapacity(used + length);
        offsets[position] = used;
        lengths[position] = length;
        used += length;
        setNotNull(position);
        return offsets[position];
    }

    /**
     * Reserves {@code length} bytes at the end of the heap for values a caller writes in bulk and
     * returns their start in {@link #data()}; the caller sets those positions' offsets, lengths and
     * null flags itself.
     */
    public int reserveBytes(int length) {
        ensureDataCapacity(used + length);
        int start = used;
        used += length;
        return start;
    }

    public byte[] getBytes(int position) {
        return Arrays.copyOfRange(data, offsets[position], offsets[position] + lengths[position]);
    }

    public String getString(int position) {
        return new String(data, offsets[position], lengths[position], StandardCharsets.UTF_8);
    }

    /** Bytes used by values so far. */
    public int usedBytes() {
        return used;
    }

    @Override
    public void reset(int size) {
        super.reset(size);
        used = 0;
    }

    public void ensureDataCapacity(int bytes) {
        if (bytes > data.length) {
            data = Arrays.copyOf(data, Math.max(bytes, data.length * 2));
        }
    }

    @Override
    public int capacity() {
        return offsets.length;
    }

    @Override
    public void ensureCapacity(int capacity) {
        if (capacity > offsets.length) {
            int newCapacity = Math.max(capacity, offsets.length * 2);
            offsets = Arrays.copyOf(offsets, newCapacity);
            lengths = Arrays.copyOf(lengths, newCapacity);
            growNulls(newCapacity);
        }
    }

    @Override
    public void copyFrom(ColumnVector source, int fromPosition, int toPosition) {
        if (source.isNull(fromPosition)) {
            setNull(toPosition);
        } else {
            BytesVector bytes = (BytesVector) source;
            set(toPosition, bytes.data, bytes.offsets[fromPosition], bytes.lengths[fromPosition]);
        }
    }
}
