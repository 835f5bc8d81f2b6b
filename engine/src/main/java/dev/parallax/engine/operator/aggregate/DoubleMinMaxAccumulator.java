package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;

import java.util.Arrays;

/** MIN and MAX of REAL/DOUBLE values; NaN is greater than every number, as in PostgreSQL. State: [value]. */
final class DoubleMinMaxAccumulator extends Accumulator {
    private final boolean maximum;
    private double[] values = new double[0];
    private boolean[] seen = new boolean[0];

    DoubleMinMaxAccumulator(boolean maximum) {
        this.maximum = maximum;
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
        double[] input = ((DoubleVector) argument).values();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            double value = input[position];
            if (!seen[group]) {
                values[group] = value;
                seen[group] = true;
            } else {
                int order = value == values[group] ? 0 : Double.compare(value, values[group]);
                if (maximum ? order > 0 : order < 0) {
                    values[group] = value;
                }
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
            ((DoubleVector) out).set(position, values[group]);
        } else {
            out.setNull(position);
        }
    }
}
