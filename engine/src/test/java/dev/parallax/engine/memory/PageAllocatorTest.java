package dev.parallax.engine.memory;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PageAllocatorTest {
    private static final int PAGE = 4096;

    @Test
    void carvesPagesFromSlabsAndReturnsEmptySlabs() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            List<NativePage> pages = new ArrayList<>();
            for (int index = 0; index < 5; index++) {
                pages.add(allocator.allocate());
            }
            assertEquals(2, allocator.slabCount());
            assertEquals(8L * PAGE, memory.allocatedBytes(MemoryTag.PAGES));
            Set<Long> addresses = new HashSet<>();
            for (NativePage page : pages) {
                assertEquals(PAGE, page.segment().byteSize());
                assertEquals(0, page.segment().address() % 64);
                addresses.add(page.segment().address());
            }
            assertEquals(5, addresses.size());

            allocator.free(pages.get(4));
            assertEquals(1, allocator.slabCount(), "the slab whose pages are all free goes back");
            assertEquals(4L * PAGE, memory.allocatedBytes(MemoryTag.PAGES));
            for (int index = 0; index < 4; index++) {
                allocator.free(pages.get(index));
            }
            assertEquals(0, allocator.slabCount());
            assertEquals(0, allocator.pagesInUse());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    @Test
    void reusesFreedPagesZeroed() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            NativePage keep = allocator.allocate();
            NativePage page = allocator.allocate();
            page.segment().set(ValueLayout.JAVA_LONG, 128, 42L);
            allocator.free(page);
            NativePage again = allocator.allocate();
            assertSame(page, again, "the freed page is handed out before a new one");
            assertEquals(0L, again.segment().get(ValueLayout.JAVA_LONG, 128));
            assertEquals(1, allocator.slabCount());
            allocator.free(again);
            allocator.free(keep);
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void outOfMemoryLeavesNothingAllocated() {
        MemoryManager memory = new MemoryManager(6L * PAGE);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            NativePage first = allocator.allocate();
            for (int index = 0; index < 3; index++) {
                allocator.allocate();
            }
            ParallaxException error = assertThrows(ParallaxException.class, allocator::allocate);
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(1, allocator.slabCount());
            assertEquals(4, allocator.pagesInUse());
            assertEquals(4L * PAGE, memory.allocatedBytes(MemoryTag.PAGES));
            allocator.free(first);
            allocator.allocate();
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    @Test
    void doubleFreeIsRejected() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            NativePage keep = allocator.allocate();
            NativePage page = allocator.allocate();
            allocator.free(page);
            assertThrows(IllegalStateException.class, () -> allocator.free(page));
            allocator.free(keep);
        }
    }

    @Test
    void concurrentAllocateAndFreeKeepCountsExact() throws InterruptedException {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 8)) {
            ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
            Thread[] threads = new Thread[4];
            for (int thread = 0; thread < threads.length; thread++) {
                long marker = thread + 1;
                threads[thread] = new Thread(() -> {
                    for (int round = 0; round < 200; round++) {
                        List<NativePage> mine = new ArrayList<>();
                        for (int index = 0; index < 5; index++) {
                            NativePage page = allocator.allocate();
                            if (page.segment().get(ValueLayout.JAVA_LONG, 0) != 0) {
                                seen.add(page.segment().get(ValueLayout.JAVA_LONG, 0));
                            }
                            page.segment().set(ValueLayout.JAVA_LONG, 0, marker);
                            mine.add(page);
                        }
                        for (NativePage page : mine) {
                            if (page.segment().get(ValueLayout.JAVA_LONG, 0) != marker) {
                                seen.add(-1L);
                            }
                            allocator.free(page);
                        }
                    }
                });
                threads[thread].start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), List.copyOf(seen), "no page was shared between owners or handed out dirty");
            assertEquals(0, allocator.pagesInUse());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    @Test
    void aHoldKeepsEmptiedSlabsForReuseUntilTheLastHoldCloses() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            List<NativePage> pages = new ArrayList<>();
            for (int index = 0; index < 8; index++) {
                pages.add(allocator.allocate());
            }
            assertEquals(2, allocator.slabCount());
            PageAllocator.EmptySlabHold outer = allocator.holdEmptySlabs();
            PageAllocator.EmptySlabHold inner = allocator.holdEmptySlabs();
            for (int index = 0; index < 4; index++) {
                allocator.free(pages.get(index));
            }
            assertEquals(2, allocator.slabCount(), "the emptied slab stays while a hold is open");
            assertEquals(8L * PAGE, memory.allocatedBytes(MemoryTag.PAGES));
            // Its pages are handed out again before any new slab is taken.
            NativePage reused = allocator.allocate();
            assertEquals(2, allocator.slabCount());
            allocator.free(reused);

            inner.close();
            inner.close();
            assertEquals(2, allocator.slabCount(), "another hold is still open (a second close changes nothing)");
            outer.close();
            assertEquals(1, allocator.slabCount(), "the last hold gives the empty slab back");
            assertEquals(4L * PAGE, memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(4, allocator.pagesInUse());

            // Without a hold, an emptied slab goes back at once again.
            for (int index = 4; index < 8; index++) {
                allocator.free(pages.get(index));
            }
            assertEquals(0, allocator.slabCount());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));

            PageAllocator.EmptySlabHold open = allocator.holdEmptySlabs();
            allocator.free(allocator.allocate());
            assertEquals(1, allocator.slabCount());
            allocator.close();
            open.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES), "closing the allocator returned everything");
        }
    }
}
