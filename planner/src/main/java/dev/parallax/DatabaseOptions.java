package dev.parallax;

/**
 * How a database is set up: off-heap memory limit, worker threads of its pool, the database-wide
 * max_parallel_workers budget, and the page size of its tables.
 */
public record DatabaseOptions(long memoryLimitBytes, int workerThreads, int maxParallelWorkers, int pageSizeBytes) {
    public static final int DEFAULT_PAGE_SIZE = 128 * 1024;

    public static DatabaseOptions defaults() {
        long maxHeap = Runtime.getRuntime().maxMemory();
        long physical = maxHeap * 4;
        try {
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os) {
                physical = os.getTotalMemorySize();
            }
        } catch (RuntimeException | LinkageError noManagementBean) {
            // Keep the heap-based guess.
        }
        int cores = Runtime.getRuntime().availableProcessors();
        return new DatabaseOptions(Math.max(256L << 20, physical / 2), Math.max(1, cores), 8, DEFAULT_PAGE_SIZE);
    }

    public DatabaseOptions withMemoryLimit(long bytes) {
        return new DatabaseOptions(bytes, workerThreads, maxParallelWorkers, pageSizeBytes);
    }

    public DatabaseOptions withPageSize(int bytes) {
        return new DatabaseOptions(memoryLimitBytes, workerThreads, maxParallelWorkers, bytes);
    }

    public DatabaseOptions withWorkerThreads(int threads) {
        return new DatabaseOptions(memoryLimitBytes, threads, maxParallelWorkers, pageSizeBytes);
    }
}
