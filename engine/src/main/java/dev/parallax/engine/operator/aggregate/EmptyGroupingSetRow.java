package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * The row of the empty grouping set {@code ()} when the aggregation saw no row at all: PostgreSQL
 * emits it as it emits a plain aggregate's row over an empty table (count 0, sum NULL), with NULL
 * in every grouping column. Any input row reaches every set, so this is the only case in which the
 * hash table holds no group of the empty set.
 */
final class EmptyGroupingSetRow {
    private final AggregateMode mode;
    private final List<AggregateCall> calls;
    private final int keyCount;
    private final int ordinal;

    /**
     * @param keyCount the aggregation's group keys, the last of them the set ordinal
     * @param ordinal  the ordinal of the empty set
     */
    EmptyGroupingSetRow(AggregateMode mode, List<AggregateCall> calls, int keyCount, int ordinal) {
        if (mode == AggregateMode.PARTIAL) {
            throw new IllegalArgumentException("a Partial Aggregate leaves the empty set's row to its Finalize Aggregate");
        }
        this.mode = mode;
        this.calls = List.copyOf(calls);
        this.keyCount = keyCount;
        this.ordinal = ordinal;
    }

    /** Replaces the contents of {@code target} (the aggregation's output batch) by the one row. */
    void write(Batch target) {
        // The values over no rows come from an aggregation without keys, whose one group exists without input.
        HashAggregation noRows = new HashAggregation(mode, new int[0], List.of(), calls);
        noRows.finishInput();
        Batch values = Batch.create(calls.stream().map(AggregateCall::resultType).toList(), 1);
        noRows.write(0, 1, values);
        target.reset();
        target.ensureCapacity(1);
        for (int key = 0; key < keyCount - 1; key++) {
            target.column(key).setNull(0);
        }
        ((LongVector) target.column(keyCount - 1)).set(0, ordinal);
        for (int call = 0; call < calls.size(); call++) {
            target.column(keyCount + call).copyFrom(values.column(call), 0, 0);
        }
        target.setRowCount(1);
    }
}
