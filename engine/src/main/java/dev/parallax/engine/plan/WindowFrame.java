package dev.parallax.engine.plan;

/**
 * The rows a window aggregate sees from each row of its partition, in PostgreSQL's terms (RANGE
 * frames with offsets, GROUPS and EXCLUDE are refused by the planner).
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
    ROWS
}
