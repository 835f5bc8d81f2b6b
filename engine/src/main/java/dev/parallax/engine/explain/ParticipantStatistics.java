package dev.parallax.engine.explain;

import dev.parallax.engine.sort.SortStatistics;

/**
 * What one participant (the leader or one worker) measured for one plan node: rows returned,
 * loops (instances run), time to the first batch and total time inside the operator, in
 * nanoseconds. Written by that participant's thread only; read after the execution finished.
 */
public final class ParticipantStatistics {
    private final int participant;
    private long rows;
    private int loops;
    private long firstNanos;
    private long totalNanos;
    private SortStatistics sort;
    private String hashSpace;

    ParticipantStatistics(int participant) {
        this.participant = participant;
    }

    /** -1 for the leader, else the worker number. */
    public int participant() {
        return participant;
    }

    public synchronized long rows() {
        return rows;
    }

    public synchronized int loops() {
        return loops;
    }

    /** Time until the first batch (or the end, when none) was returned, summed over loops. */
    public synchronized long firstNanos() {
        return firstNanos;
    }

    public synchronized long totalNanos() {
        return totalNanos;
    }

    synchronized void recordLoop(long rowsOfLoop, long firstNanosOfLoop, long totalNanosOfLoop) {
        loops++;
        rows += rowsOfLoop;
        firstNanos += firstNanosOfLoop;
        totalNanos += totalNanosOfLoop;
    }

    /** What this participant's sort did (its last loop's), or null when the node is not a sort or never finished sorting. */
    public synchronized SortStatistics sort() {
        return sort;
    }

    /** Called by a sort operator once its input is sorted, on the participant's thread. */
    public synchronized void recordSort(SortStatistics statistics) {
        this.sort = statistics;
    }

    /**
     * The hash table line of a Hash or HashAggregate node for this participant
     * ({@code Buckets: N  Batches: N  Memory Usage: NkB}, {@code Batches: N  Memory Usage: NkB…}),
     * or null when the node has none or never ran.
     */
    public synchronized String hashSpace() {
        return hashSpace;
    }

    /** Called by a hash join or hash aggregation operator when it closes, on the participant's thread. */
    public synchronized void recordHashSpace(String line) {
        this.hashSpace = line;
    }
}
