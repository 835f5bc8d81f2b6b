package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.vector.ColumnVector;

import java.util.Objects;

/**
 * One aggregate call computed over a window frame: the aggregate operator's accumulator for the
 * call (its result types, NULL handling and arithmetic), holding the one group of the partition
 * being read. The window operator adds the rows of each frame step, reads the result, and clears
 * it at each new partition. Used by one thread.
 */
public final class WindowAggregate {
    private final Accumulator accumulator;
    /** Group ids of the rows added: always group 0, never written. */
    private int[] groupIds = new int[0];

    public WindowAggregate(AggregateCall call) {
        Objects.requireNonNull(call, "call");
        if (call.distinct()) {
            throw new IllegalArgumentException("a window aggregate cannot be DISTINCT: " + call.name());
        }
        this.accumulator = HashAggregation.create(call);
        accumulator.ensureGroups(1);
    }

    /** Forgets every row added: the aggregate of no row (NULL, count 0). */
    public void clear() {
        accumulator.clear(0);
    }

    /**
     * Adds the values of {@code argument} (null for count(*)) at {@code positions[0 .. count-1]};
     * NULL values are skipped as the aggregate skips them.
     */
    public void add(ColumnVector argument, int[] positions, int count) {
        if (groupIds.length < count) {
            groupIds = new int[Math.max(count, 2 * groupIds.length)];
        }
        accumulator.add(argument, positions, groupIds, count);
    }

    /** Writes the aggregate of the rows added since the last clear into {@code out} at {@code position}. */
    public void writeResult(ColumnVector out, int position) {
        accumulator.writeResult(0, out, position);
    }
}
