package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/** count(*) (argument null: every row) and count(x) (non-NULL values). State: [count]. */
final class CountAccumulator extends Accumulator {
    private long[] counts = new long[0];

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > counts.length) {
            counts = Arrays.copyOf(counts, grownCapacity(counts.length, groupCount));
        }
    }

    @Override
    void clear(int group) {
        counts[group] = 0;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        long[] counts = this.counts;
        if (argument == null || !argument.mayHaveNulls()) {
            for (int index = 0; index < count; index++) {
                counts[groupIds[index]]++;
            }
            return;
        }
        boolean[] nulls = argument.nulls();
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (!nulls[position]) {
                counts[groupIds[index]]++;
            }
        }
    }

    @Override
    void addGrouped(ColumnVector argument, int[] positions, int[] groupIds, int[] groupEnds, int groupCount, int count) {
        if (argument != null && argument.mayHaveNulls()) {
            add(argument, positions, groupIds, count);
            return;
        }
        long[] counts = this.counts;
        int start = 0;
        for (int group = 0; group < groupCount; group++) {
            counts[group] += groupEnds[group] - start;
            start = groupEnds[group];
        }
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        long[] partial = ((LongVector) states[firstState]).values();
        long[] counts = this.counts;
        for (int index = 0; index < count; index++) {
            counts[groupIds[index]] += partial[positions == null ? index : positions[index]];
        }
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        ((LongVector) out[firstColumn]).set(position, counts[group]);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        ((LongVector) out).set(position, counts[group]);
    }
}
