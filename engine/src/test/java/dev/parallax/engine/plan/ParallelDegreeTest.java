package dev.parallax.engine.plan;

import org.junit.jupiter.api.Test;

import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ParallelDegreeTest {
    private static final long PAGE = ParallelDegree.PAGE_BYTES;
    private static final long EIGHT_MEGABYTES = 8L * 1024 * 1024;

    private static int workers(long pages, int maxPerGather) {
        return ParallelDegree.tableScanWorkers(pages * PAGE, OptionalInt.empty(), EIGHT_MEGABYTES, maxPerGather);
    }

    @Test
    void belowMinimumSizeGetsNoWorker() {
        assertEquals(0, workers(0, 8));
        assertEquals(0, workers(1023, 8));
    }

    @Test
    void oneWorkerAtMinimumThenOneMoreEachTimeTheSizeTriples() {
        assertEquals(1, workers(1024, 8));
        assertEquals(1, workers(3071, 8));
        assertEquals(2, workers(3072, 8));
        assertEquals(2, workers(9215, 8));
        assertEquals(3, workers(9216, 8));
        assertEquals(4, workers(27648, 8));
        // TPC-H lineitem at SF1 is about 900 MB: 115,000 pages gives 5 workers before the cap.
        assertEquals(5, workers(115_000, 8));
    }

    @Test
    void cappedByMaxParallelWorkersPerGather() {
        assertEquals(2, workers(115_000, 2));
        assertEquals(0, workers(115_000, 0));
    }

    @Test
    void reloptionWinsButIsStillCapped() {
        assertEquals(1, ParallelDegree.tableScanWorkers(10 * PAGE, OptionalInt.of(1), EIGHT_MEGABYTES, 2));
        assertEquals(1, ParallelDegree.tableScanWorkers(115_000 * PAGE, OptionalInt.of(1), EIGHT_MEGABYTES, 2));
        assertEquals(2, ParallelDegree.tableScanWorkers(10 * PAGE, OptionalInt.of(6), EIGHT_MEGABYTES, 2));
        assertEquals(0, ParallelDegree.tableScanWorkers(115_000 * PAGE, OptionalInt.of(0), EIGHT_MEGABYTES, 2));
    }

    @Test
    void zeroMinimumSizeMakesEveryTableParallel() {
        assertEquals(1, ParallelDegree.tableScanWorkers(PAGE, OptionalInt.empty(), 0, 4));
        assertEquals(2, ParallelDegree.tableScanWorkers(3 * PAGE, OptionalInt.empty(), 0, 4));
    }

    @Test
    void pagesRoundUp() {
        assertEquals(0, ParallelDegree.pages(0));
        assertEquals(1, ParallelDegree.pages(1));
        assertEquals(2, ParallelDegree.pages(PAGE + 1));
    }

    @Test
    void parallelDivisorCountsTheLeaderShare() {
        assertEquals(2.4, ParallelDegree.parallelDivisor(2, true), 1e-9);
        assertEquals(2.0, ParallelDegree.parallelDivisor(2, false), 1e-9);
        assertEquals(1.7, ParallelDegree.parallelDivisor(1, true), 1e-9);
        assertEquals(4.0, ParallelDegree.parallelDivisor(4, true), 1e-9);
    }
}
