package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.ColumnVector;

/**
 * The per-group states of one aggregate call, held in primitive arrays indexed by group id (no
 * object per group). Rows arrive a batch at a time as parallel arrays: {@code positions[i]} is
 * the batch position of the i-th row ({@code positions == null}: position i) and
 * {@code groupIds[i]} its group. Used by one thread.
 */
abstract class Accumulator {
    /** Grows the state arrays to hold groups {@code 0..groupCount-1}; new groups start empty. */
    abstract void ensureGroups(int groupCount);

    /** Empties group {@code group}'s state, as if it had seen no row (a window aggregate's next partition). */
    abstract void clear(int group);

    /** Adds raw input values of {@code argument} (null for count(*)); NULL values are skipped. */
    abstract void add(ColumnVector argument, int[] positions, int[] groupIds, int count);

    /**
     * Adds raw input values of {@code argument} with the rows already ordered by group: the rows
     * of group {@code g} are {@code positions[groupEnds[g-1] .. groupEnds[g]-1]} (from 0 for the
     * first group), and {@code groupIds} holds each of those rows' group in the same order.
     * Equivalent to {@link #add}; accumulators override it to sum each group's run in registers
     * instead of updating the group's state once per row.
     */
    void addGrouped(ColumnVector argument, int[] positions, int[] groupIds, int[] groupEnds, int groupCount, int count) {
        add(argument, positions, groupIds, count);
    }

    /** Merges intermediate states read from {@code states[firstState ..]} (a Partial Aggregate's output). */
    abstract void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count);

    /** Writes group {@code group}'s state into {@code out[firstColumn ..]} at {@code position}. */
    abstract void writeState(int group, ColumnVector[] out, int firstColumn, int position);

    /** Writes group {@code group}'s final value into {@code out} at {@code position}. */
    abstract void writeResult(int group, ColumnVector out, int position);

    /**
     * Heap bytes held beyond the fixed-width state columns counted per group by the aggregation
     * (the seen values of a DISTINCT aggregate); 0 unless overridden.
     */
    long extraMemoryBytes() {
        return 0;
    }

    static int grownCapacity(int current, int needed) {
        return Math.max(needed, Math.max(16, current + (current >> 1)));
    }
}
