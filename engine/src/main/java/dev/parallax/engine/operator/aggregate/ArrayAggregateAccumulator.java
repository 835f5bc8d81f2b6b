package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * array_agg: each group collects its values, NULLs included, in arrival order, into a builder of
 * its own (the values themselves are the state, so there is no fixed-width form to keep them in).
 * State: [the array so far]; combining appends another participant's array. COLLECT (an ordered-set
 * aggregate's input) skips NULL values, so a group with none stays NULL.
 */
final class ArrayAggregateAccumulator extends Accumulator {
    private final DataType arrayType;
    private final boolean skipNulls;
    private ArrayValue.Builder[] builders = new ArrayValue.Builder[0];
    private long heldBytes;

    ArrayAggregateAccumulator(DataType arrayType, boolean skipNulls) {
        this.arrayType = arrayType;
        this.skipNulls = skipNulls;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > builders.length) {
            builders = Arrays.copyOf(builders, grownCapacity(builders.length, groupCount));
        }
    }

    private ArrayValue.Builder builder(int group) {
        ArrayValue.Builder builder = builders[group];
        if (builder == null) {
            builder = new ArrayValue.Builder(arrayType);
            builders[group] = builder;
            heldBytes += 128;
        }
        return builder;
    }

    @Override
    void clear(int group) {
        // heldBytes keeps counting the dropped values: it bounds a hash aggregation, whose groups are never cleared.
        builders[group] = null;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (skipNulls && nulls != null && nulls[position]) {
                continue;
            }
            ArrayValue.Builder builder = builder(groupIds[index]);
            heldBytes += 9;
            if (nulls != null && nulls[position]) {
                builder.addNull();
                continue;
            }
            switch (argument) {
                case LongVector longs -> builder.addLong(longs.values()[position]);
                case DoubleVector doubles -> builder.addDouble(doubles.values()[position]);
                case BytesVector bytes -> {
                    builder.addBytes(bytes.data(), bytes.offset(position), bytes.length(position));
                    heldBytes += bytes.length(position);
                }
            }
        }
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        BytesVector arrays = (BytesVector) states[firstState];
        boolean[] nulls = arrays.mayHaveNulls() ? arrays.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            ArrayValue.Builder builder = builder(groupIds[index]);
            byte[] data = arrays.data();
            int offset = arrays.offset(position);
            int elements = ArrayValue.count(data, offset);
            for (int element = 0; element < elements; element++) {
                builder.addFrom(data, offset, element);
            }
            heldBytes += arrays.length(position);
        }
    }

    @Override
    long extraMemoryBytes() {
        return heldBytes;
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        writeResult(group, out[firstColumn], position);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        ArrayValue.Builder builder = builders[group];
        if (builder == null) {
            out.setNull(position);
            return;
        }
        // build() empties the builder: keep its elements for a later write of the same group.
        byte[] array = builder.build(1);
        ((BytesVector) out).set(position, array);
        for (int element = 0; element < ArrayValue.count(array, 0); element++) {
            builder.addFrom(array, 0, element);
        }
    }
}
