package dev.parallax.engine.operator.join;

/**
 * What one participant's hash join build did, as EXPLAIN ANALYZE shows it on the Hash node:
 * {@code Buckets: N  Batches: N  Memory Usage: NkB} (PostgreSQL's line). Once the build spilled,
 * batches count the partitions joined (deeper splits included), buckets and memory are the largest
 * of any partition's table. Used by one thread.
 */
public final class JoinStatistics {
    private long buckets;
    private int batches = 1;
    private long peakMemoryBytes;
    private long diskBytes;

    void recordTable(long bucketCount, long memoryBytes) {
        buckets = Math.max(buckets, bucketCount);
        peakMemoryBytes = Math.max(peakMemoryBytes, memoryBytes);
    }

    void recordBatches(int count) {
        batches = Math.max(batches, count);
    }

    void recordDisk(long bytes) {
        diskBytes += bytes;
    }

    /** Folds in the statistics of the join of one spilled partition. */
    void absorbPartition(JoinStatistics partition) {
        buckets = Math.max(buckets, partition.buckets);
        peakMemoryBytes = Math.max(peakMemoryBytes, partition.peakMemoryBytes);
        batches += partition.batches - 1;
        diskBytes += partition.diskBytes;
    }

    public long buckets() {
        return buckets;
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

    /** PostgreSQL's line: {@code Buckets: 1024  Batches: 1  Memory Usage: 9kB}. */
    public String explainLine() {
        return "Buckets: " + buckets + "  Batches: " + batches + "  Memory Usage: " + (peakMemoryBytes + 1023) / 1024 + "kB";
    }
}
