package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.operator.ValueComparison;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.util.Arrays;

/**
 * MIN and MAX of text, bit strings and arrays (element-wise, PostgreSQL's array_cmp). Each group keeps a copy of its current extreme, replaced
 * only when a new extreme arrives (so a copy is made per change, not per row). State: [value].
 */
final class BytesMinMaxAccumulator extends Accumulator {
    private final boolean maximum;
    private final TypeKind kind;
    private final dev.parallax.engine.type.DataType type;
    private byte[][] values = new byte[0][];
    /** Bytes of the values held (plus an array header each), for the aggregation's memory bound. */
    private long heldBytes;

    BytesMinMaxAccumulator(boolean maximum, dev.parallax.engine.type.DataType type) {
        this.maximum = maximum;
        this.kind = type.kind();
        this.type = type;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > values.length) {
            values = Arrays.copyOf(values, grownCapacity(values.length, groupCount));
        }
    }

    @Override
    void clear(int group) {
        if (values[group] != null) {
            heldBytes -= 16 + values[group].length;
            values[group] = null;
        }
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        BytesVector input = (BytesVector) argument;
        byte[] data = input.data();
        int[] offsets = input.offsets();
        int[] lengths = input.lengths();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            byte[] current = values[group];
            int offset = offsets[position];
            int length = lengths[position];
            if (current == null) {
                values[group] = Arrays.copyOfRange(data, offset, offset + length);
                heldBytes += 16 + length;
                continue;
            }
            int order = kind == TypeKind.ARRAY
                    ? dev.parallax.engine.sort.ValueOrder.compareArrays(type, data, offset, current, 0)
                    : ValueComparison.compare(kind, data, offset, length, current, 0, current.length);
            if (maximum ? order > 0 : order < 0) {
                values[group] = Arrays.copyOfRange(data, offset, offset + length);
                heldBytes += length - current.length;
            }
        }
    }

    @Override
    long extraMemoryBytes() {
        return heldBytes;
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        add(states[firstState], positions, groupIds, count);
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        writeResult(group, out[firstColumn], position);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        byte[] value = values[group];
        if (value == null) {
            out.setNull(position);
        } else {
            ((BytesVector) out).set(position, value);
        }
    }
}
