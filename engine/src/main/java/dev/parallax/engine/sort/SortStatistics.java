package dev.parallax.engine.sort;

/**
 * What one sort did, for EXPLAIN ANALYZE.
 *
 * @param method                 how the sort finished
 * @param memoryBytes            peak bytes of rows and sort arrays held in memory
 * @param diskBytes              bytes written to temporary files (0 unless {@link SortMethod#EXTERNAL_MERGE})
 * @param inputRows              rows given to the sort
 * @param runCount               sorted runs written to disk
 * @param abbreviationAbandoned  true when prefix keys were dropped because they were not distinct enough
 */
public record SortStatistics(SortMethod method, long memoryBytes, long diskBytes, long inputRows, int runCount,
                             boolean abbreviationAbandoned) {

    /** PostgreSQL's line, e.g. {@code Sort Method: quicksort  Memory: 25kB} or {@code Sort Method: external merge  Disk: 1032kB}. */
    public String explainLine() {
        return switch (method) {
            case QUICKSORT, TOP_N_HEAPSORT -> "Sort Method: " + method.explainName() + "  Memory: " + kilobytes(memoryBytes) + "kB";
            case EXTERNAL_MERGE -> "Sort Method: " + method.explainName() + "  Disk: " + kilobytes(diskBytes) + "kB";
        };
    }

    private static long kilobytes(long bytes) {
        // PostgreSQL rounds the space used up to whole kilobytes.
        return (bytes + 1023) / 1024;
    }
}
