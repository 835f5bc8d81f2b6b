package dev.parallax.engine.operator.aggregate;

/**
 * What one participant's hash aggregation did, as EXPLAIN ANALYZE shows it under PostgreSQL 13+:
 * {@code Batches: N  Memory Usage: NkB  Disk Usage: NkB}. Batches count the table of the input
 * plus one per spilled partition aggregated afterwards (1 when nothing spilled). Used by one thread.
 */
public final class AggregateStatistics {
    private int batches = 1;
    private long peakMemoryBytes;
    private long diskBytes;

    void recordTable(long memoryBytes) {
        peakMemoryBytes = Math.max(peakMemoryBytes, memoryBytes);
    }

    void recordBatch() {
        batches++;
    }

    void recordDisk(long bytes) {
        diskBytes += bytes;
    }

    public int batches() {
        return batches;
    }

    public long peakMemoryBytes() {
        return peakMemoryBytes;
    }

    public long diskBytes() {
        return diskBytes;
    }

    /** PostgreSQL's line: {@code Batches: 1  Memory Usage: 24kB}, with {@code  Disk Usage: NkB} once it spilled. */
    public String explainLine() {
        String line = "Batches: " + batches + "  Memory Usage: " + kilobytes(peakMemoryBytes) + "kB";
        return diskBytes > 0 ? line + "  Disk Usage: " + kilobytes(diskBytes) + "kB" : line;
    }

    private static long kilobytes(long bytes) {
        return (bytes + 1023) / 1024;
    }
}
