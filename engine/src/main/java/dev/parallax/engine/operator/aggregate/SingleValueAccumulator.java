package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * SINGLE_VALUE: the value of a scalar subquery's only row (NULL for no row, or a NULL value), and
 * PostgreSQL's 21000 error as soon as a group sees a second row. With at most one row per group,
 * a MIN accumulator over the argument keeps exactly that value, so it holds the value for every
 * type. State: [the MIN state (the value, NULL when none)], [row count BIGINT].
 */
final class SingleValueAccumulator extends Accumulator {
    private final Accumulator value;
    private final int valueStates;
    private long[] rows = new long[0];

    SingleValueAccumulator(Accumulator value, int valueStates) {
        this.value = value;
        this.valueStates = valueStates;
    }

    @Override
    void ensureGroups(int groupCount) {
        value.ensureGroups(groupCount);
        if (groupCount > rows.length) {
            rows = Arrays.copyOf(rows, grownCapacity(rows.length, groupCount));
        }
    }

    @Override
    void clear(int group) {
        value.clear(group);
        rows[group] = 0;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        long[] rows = this.rows;
        // Every row counts, NULL or not: a subquery returning two NULLs is still two rows.
        for (int index = 0; index < count; index++) {
            if (++rows[groupIds[index]] > 1) {
                throw tooManyRows();
            }
        }
        value.add(argument, positions, groupIds, count);
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        long[] partial = ((LongVector) states[firstState + valueStates]).values();
        long[] rows = this.rows;
        for (int index = 0; index < count; index++) {
            rows[groupIds[index]] += partial[positions == null ? index : positions[index]];
            if (rows[groupIds[index]] > 1) {
                throw tooManyRows();
            }
        }
        value.combine(states, firstState, positions, groupIds, count);
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        value.writeState(group, out, firstColumn, position);
        ((LongVector) out[firstColumn + valueStates]).set(position, rows[group]);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        value.writeResult(group, out, position);
    }

    private static ParallaxException tooManyRows() {
        return ParallaxException.of(SqlState.CARDINALITY_VIOLATION, "more than one row returned by a subquery used as an expression");
    }

    @Override
    long extraMemoryBytes() {
        return value.extraMemoryBytes();
    }
}
