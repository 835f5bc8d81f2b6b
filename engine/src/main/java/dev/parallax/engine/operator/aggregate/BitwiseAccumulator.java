package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * bit_and, bit_or and bit_xor of integers (held as longs): the bits of the non-NULL values, NULL
 * while none was seen. Combining a partial state is adding its value (the operations are
 * associative and commutative). State: [value], NULL while no value was seen.
 */
final class BitwiseAccumulator extends Accumulator {
    private final AggregateFunction function;
    private long[] values = new long[0];
    private boolean[] seen = new boolean[0];

    BitwiseAccumulator(AggregateFunction function) {
        this.function = function;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > values.length) {
            int capacity = grownCapacity(values.length, groupCount);
            values = Arrays.copyOf(values, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void clear(int group) {
        seen[group] = false;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        long[] input = ((LongVector) argument).values();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        long[] values = this.values;
        boolean[] seen = this.seen;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            long value = input[position];
            if (!seen[group]) {
                values[group] = value;
                seen[group] = true;
            } else {
                // The function is fixed per instance: a predictable jump per row on a final field.
                values[group] = switch (function) {
                    case BIT_AND -> values[group] & value;
                    case BIT_OR -> values[group] | value;
                    default -> values[group] ^ value;
                };
            }
        }
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
        if (seen[group]) {
            ((LongVector) out).set(position, values[group]);
        } else {
            out.setNull(position);
        }
    }
}
