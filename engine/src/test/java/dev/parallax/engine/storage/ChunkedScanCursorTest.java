package dev.parallax.engine.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChunkedScanCursorTest {
    @Test
    void initialChunkFollowsPostgres14() {
        assertEquals(1, ChunkedScanCursor.initialChunkPages(0));
        assertEquals(1, ChunkedScanCursor.initialChunkPages(4095));
        assertEquals(2, ChunkedScanCursor.initialChunkPages(4096));
        assertEquals(4, ChunkedScanCursor.initialChunkPages(6144));
        assertEquals(64, ChunkedScanCursor.initialChunkPages(100_000));
        assertEquals(8192, ChunkedScanCursor.initialChunkPages(Integer.MAX_VALUE));
    }

    @Test
    void automaticChunksRampDownNearTheEnd() {
        // 100000 pages: chunks of 64 until fewer than 64 * 64 remain, then 32, 16, ... 1.
        ChunkedScanCursor cursor = new ChunkedScanCursor(100_000, 0);
        List<Integer> sizes = new ArrayList<>();
        long expectedFirst = 0;
        for (long chunk = cursor.nextChunk(); chunk != ScanCursor.EXHAUSTED; chunk = cursor.nextChunk()) {
            assertEquals(expectedFirst, ScanCursor.firstPage(chunk));
            expectedFirst += ScanCursor.pageCount(chunk);
            sizes.add(ScanCursor.pageCount(chunk));
        }
        assertEquals(100_000, expectedFirst);
        assertEquals(64, sizes.getFirst());
        assertEquals(1, sizes.getLast());
        // The first halving happens at the first claim whose last allocated page exceeds 100000 - 4096.
        int position = 0;
        int index = 0;
        while (sizes.get(index) == 64) {
            position += 64;
            index++;
        }
        assertEquals(95_936, position, "64-page chunks up to the first claim past page 95904");
        assertEquals(32, sizes.get(index));
        for (int next = 1; next < sizes.size(); next++) {
            int ratio = sizes.get(next - 1) / sizes.get(next);
            assertEquals(true, ratio == 1 || ratio == 2, "sizes only ever halve: " + sizes.subList(next - 1, next + 1));
        }
    }

    @Test
    void fixedChunksCoverTheTableAndClipTheLast() {
        ChunkedScanCursor cursor = new ChunkedScanCursor(10, 4);
        assertEquals(ScanCursor.chunk(0, 4), cursor.nextChunk());
        assertEquals(ScanCursor.chunk(4, 4), cursor.nextChunk());
        assertEquals(ScanCursor.chunk(8, 2), cursor.nextChunk());
        assertEquals(ScanCursor.EXHAUSTED, cursor.nextChunk());
        assertEquals(ScanCursor.EXHAUSTED, cursor.nextChunk());
        assertEquals(ScanCursor.EXHAUSTED, new ChunkedScanCursor(0, 0).nextChunk());
    }

    @Test
    void everyPageHandedOutExactlyOnceUnderThreads() throws InterruptedException {
        for (int chunkPages : new int[] {0, 1, 3, 64}) {
            for (int pageCount : new int[] {1, 7, 5000, 300_000}) {
                assertEachPageOnce(pageCount, chunkPages, 4);
            }
        }
    }

    private static void assertEachPageOnce(int pageCount, int chunkPages, int threadCount) throws InterruptedException {
        ChunkedScanCursor cursor = new ChunkedScanCursor(pageCount, chunkPages);
        AtomicIntegerArray claims = new AtomicIntegerArray(pageCount);
        Thread[] threads = new Thread[threadCount];
        for (int thread = 0; thread < threadCount; thread++) {
            threads[thread] = new Thread(() -> {
                for (long chunk = cursor.nextChunk(); chunk != ScanCursor.EXHAUSTED; chunk = cursor.nextChunk()) {
                    int first = ScanCursor.firstPage(chunk);
                    for (int page = first; page < first + ScanCursor.pageCount(chunk); page++) {
                        claims.incrementAndGet(page);
                    }
                }
            });
            threads[thread].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (int page = 0; page < pageCount; page++) {
            assertEquals(1, claims.get(page), "page " + page + " of " + pageCount + ", chunkPages " + chunkPages);
        }
    }
}
