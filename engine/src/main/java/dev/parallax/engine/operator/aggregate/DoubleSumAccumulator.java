package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/** SUM and AVG of REAL/DOUBLE values, in double as PostgreSQL does. State: [sum, count]. */
final class DoubleSumAccumulator extends Accumulator {
    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];

    DoubleSumAccumulator(boolean average) {
        this.average = average;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > counts.length) {
            int capacity = grownCapacity(counts.length, groupCount);
            sums = Arrays.copyOf(sums, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    void clear(int group) {
        sums[group] = 0;
        counts[group] = 0;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        double[] values = ((DoubleVector) argument).values();
        double[] sums = this.sums;
        long[] counts = this.counts;
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            sums[group] += values[position];
            counts[group]++;
        }
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        double[] partialSums = ((DoubleVector) states[firstState]).values();
        long[] partialCounts = ((LongVector) states[firstState + 1]).values();
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            sums[groupIds[index]] += partialSums[position];
            counts[groupIds[index]] += partialCounts[position];
        }
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        ((DoubleVector) out[firstColumn]).set(position, sums[group]);
        ((LongVector) out[firstColumn + 1]).set(position, counts[group]);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        if (counts[group] == 0) {
            out.setNull(position);
        } else {
            ((DoubleVector) out).set(position, average ? sums[group] / counts[group] : sums[group]);
        }
    }
}
