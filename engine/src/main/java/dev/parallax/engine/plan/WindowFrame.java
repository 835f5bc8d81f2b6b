package dev.parallax.engine.plan;

/**
 * The rows a window aggregate sees from each row of its partition, in PostgreSQL's terms. The
 * first three are the frames an aggregate reaches by adding the rows as they stream past; the
 * others ({@link #isComputedOverPartition()}) need the whole partition held, and are the only ones
 * a {@link WindowFrameExclusion} other than NO OTHERS goes with.
 */
public enum WindowFrame {
    /**
     * Every row of the partition: a window without ORDER BY, or {@code ROWS} / {@code RANGE BETWEEN
     * UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING}.
     */
    PARTITION,
    /**
     * From the partition's first row to the current row's last peer (rows equal on the order keys):
     * PostgreSQL's default with ORDER BY, {@code RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}.
     */
    THROUGH_PEERS,
    /** From the partition's first row to the current row itself: {@code ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}. */
    THROUGH_ROW,
    /**
     * ROWS with an offset or a start after the partition's first row ({@code ROWS BETWEEN 1 PRECEDING
     * AND CURRENT ROW}, {@code 2 PRECEDING AND 2 FOLLOWING}, {@code CURRENT ROW AND UNBOUNDED FOLLOWING}):
     * the rows from {@link WindowNode#frameStart()} to {@link WindowNode#frameEnd()} rows from the
     * current row, within its partition; empty when the start comes after the end.
     */
    ROWS,
    /**
     * RANGE with an offset or a start after the partition's first row ({@code RANGE BETWEEN 2 PRECEDING
     * AND CURRENT ROW}, {@code CURRENT ROW AND UNBOUNDED FOLLOWING}): a bound is the partition's end,
     * the current row's first / last peer, or the first / last row whose order key is within the
     * offset of the current row's ({@link WindowRangeOffsets}); {@link WindowNode#frameStart()} and
     * {@link WindowNode#frameEnd()} say which (an unbounded marker, -1 for an offset PRECEDING, 0 for
     * CURRENT ROW, 1 for an offset FOLLOWING). A NULL key's rows are peers of each other only.
     */
    RANGE,
    /**
     * GROUPS: the bounds count peer groups from the current row's ({@code GROUPS BETWEEN 1 PRECEDING
     * AND CURRENT ROW} starts at the previous group's first row and ends at the current row's last
     * peer); {@link WindowNode#frameStart()} and {@link WindowNode#frameEnd()} are the bounds in
     * groups from the current row's, 0 for CURRENT ROW.
     */
    GROUPS;

    /** Whether an aggregate over this frame is computed once the whole partition is held (it sees rows after the current one, or loses rows). */
    public boolean isComputedOverPartition() {
        return switch (this) {
            case PARTITION, THROUGH_PEERS, THROUGH_ROW -> false;
            case ROWS, RANGE, GROUPS -> true;
        };
    }
}
