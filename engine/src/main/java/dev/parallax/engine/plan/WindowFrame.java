package dev.parallax.engine.plan;

/**
 * The rows a window aggregate sees from each row of its partition, in PostgreSQL's terms (frames
 * with offsets, GROUPS and EXCLUDE are refused by the planner).
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
    THROUGH_ROW
}
