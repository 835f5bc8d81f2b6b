package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * BOOL_AND and BOOL_OR. Per group one byte: 0 = no value yet, 1 = false, 2 = true, so AND is the
 * minimum and OR the maximum of the values seen. State: [BOOLEAN], NULL while no value was seen.
 */
final class BooleanAccumulator extends Accumulator {
    private static final byte NONE = 0;
    private final boolean conjunction;
    private byte[] states = new byte[0];

    BooleanAccumulator(boolean conjunction) {
        this.conjunction = conjunction;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > states.length) {
            states = Arrays.copyOf(states, grownCapacity(states.length, groupCount));
        }
    }

    @Override
    void clear(int group) {
        states[group] = NONE;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        long[] input = ((LongVector) argument).values();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            byte value = input[position] != 0 ? (byte) 2 : (byte) 1;
            byte current = states[group];
            if (current == NONE) {
                states[group] = value;
            } else {
                states[group] = conjunction ? (byte) Math.min(current, value) : (byte) Math.max(current, value);
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
        byte state = states[group];
        if (state == NONE) {
            out.setNull(position);
        } else {
            ((LongVector) out).set(position, state == 2 ? 1 : 0);
        }
    }
}
