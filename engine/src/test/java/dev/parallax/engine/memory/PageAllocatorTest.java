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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PageAllocatorTest {
    private static final int PAGE = 4096;
    /** The bytes one page takes in its slab: the page and the stagger before the next one. */
    private static final long SLOT = PAGE + PageAllocator.PAGE_STAGGER;

    @Test
    void carvesPagesFromSlabsAndReturnsEmptySlabs() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            List<NativePage> pages = new ArrayList<>();
            for (int index = 0; index < 5; index++) {
                pages.add(allocator.allocate());
            }
            assertEquals(2, allocator.slabCount());
            assertEquals(8L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            Set<Long> addresses = new HashSet<>();
            for (NativePage page : pages) {
                assertEquals(PAGE, page.segment().byteSize());
                assertEquals(0, page.segment().address() % 64);
                addresses.add(page.segment().address());
            }
            assertEquals(5, addresses.size());

            allocator.free(pages.get(4));
            assertEquals(1, allocator.slabCount(), "the slab whose pages are all free goes back");
            assertEquals(4L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            for (int index = 0; index < 4; index++) {
                allocator.free(pages.get(index));
            }
            assertEquals(0, allocator.slabCount());
            assertEquals(0, allocator.pagesInUse());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        }
    }

    @Test
    void pagesOfASlabAreStaggeredByACacheLineAndADefaultSlabFitsFourHugePages() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            long first = allocator.allocate().segment().address();
            for (int index = 1; index < 4; index++) {
                NativePage page = allocator.allocate();
                assertEquals(index, page.indexInSlab());
                // Not a power of two apart: the same offset in each page falls in another cache set.
                assertEquals(first + index * (PAGE + 64L), page.segment().address());
            }
        }
        long defaultSlab = (long) PageAllocator.DEFAULT_PAGES_PER_SLAB * (128 * 1024 + PageAllocator.PAGE_STAGGER);
        assertTrue(defaultSlab <= 4 * HugePages.SIZE, "a default slab of 128 KiB pages takes " + defaultSlab + " bytes");
    }

    @Test
    void retainedSlabsLeaveTheBudgetAndAreReusedZeroedBeforeNewOnesAreMapped() {
        MemoryManager memory = new MemoryManager(8L * SLOT);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 2, Runnable::run, 1)) {
            List<NativePage> pages = new ArrayList<>();
            for (int index = 0; index < 6; index++) {
                pages.add(allocator.allocate());
            }
            Set<Long> slabAddresses = new HashSet<>();
            for (NativePage page : pages) {
                page.segment().set(ValueLayout.JAVA_LONG, 256, 7L);
                slabAddresses.add(page.segment().address() - (long) page.indexInSlab() * SLOT);
            }
            for (NativePage page : pages) {
                allocator.free(page);
            }
            // One emptied slab kept (outside the budget), the other two closed.
            assertEquals(0, allocator.slabCount());
            assertEquals(1, allocator.retainedSlabCount());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(0, memory.allocatedBytes());

            // The retained slab serves the next pages, zeroed, charged to the budget again.
            NativePage first = allocator.allocate();
            NativePage second = allocator.allocate();
            assertEquals(0, allocator.retainedSlabCount());
            assertEquals(2L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            assertTrue(slabAddresses.contains(first.segment().address() - (long) first.indexInSlab() * SLOT));
            assertEquals(0L, first.segment().get(ValueLayout.JAVA_LONG, 256));
            assertEquals(0L, second.segment().get(ValueLayout.JAVA_LONG, 256));
            // A new slab is mapped once the retained one is in use.
            NativePage third = allocator.allocate();
            assertEquals(2, allocator.slabCount());
            assertEquals(4L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            allocator.free(first);
            allocator.free(second);
            allocator.free(third);
            assertEquals(1, allocator.retainedSlabCount());
            assertEquals(0, memory.allocatedBytes());
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void aRetainedSlabTheBudgetNoLongerCoversStaysRetainedAndTheAllocationFails() {
        MemoryManager memory = new MemoryManager(4L * SLOT);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 2, Runnable::run, 1)) {
            NativePage page = allocator.allocate();
            allocator.free(page);
            assertEquals(1, allocator.retainedSlabCount());
            // Someone else takes the whole budget meanwhile.
            memory.reserve(MemoryTag.OTHER, 4L * SLOT);
            ParallaxException error = assertThrows(ParallaxException.class, allocator::allocate);
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(1, allocator.retainedSlabCount());
            assertEquals(0, allocator.pagesInUse());
            memory.release(MemoryTag.OTHER, 4L * SLOT);
            NativePage again = allocator.allocate();
            assertEquals(2L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            allocator.free(again);
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void slabsEmptiedUnderAHoldAreRetainedWhenItCloses() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 2, Runnable::run, 1)) {
            NativePage first = allocator.allocate();
            NativePage second = allocator.allocate();
            NativePage third = allocator.allocate();
            try (PageAllocator.EmptySlabHold hold = allocator.holdEmptySlabs()) {
                allocator.free(first);
                allocator.free(second);
                allocator.free(third);
                assertEquals(2, allocator.slabCount());
            }
            assertEquals(0, allocator.slabCount());
            assertEquals(1, allocator.retainedSlabCount());
            assertEquals(0, memory.allocatedBytes());
        }
        assertEquals(0, memory.allocatedBytes());
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
        MemoryManager memory = new MemoryManager(6L * SLOT);
        try (PageAllocator allocator = new PageAllocator(memory, PAGE, 4)) {
            NativePage first = allocator.allocate();
            for (int index = 0; index < 3; index++) {
                allocator.allocate();
            }
            ParallaxException error = assertThrows(ParallaxException.class, allocator::allocate);
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(1, allocator.slabCount());
            assertEquals(4, allocator.pagesInUse());
            assertEquals(4L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
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
            assertEquals(8L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
            // Its pages are handed out again before any new slab is taken.
            NativePage reused = allocator.allocate();
            assertEquals(2, allocator.slabCount());
            allocator.free(reused);

            inner.close();
            inner.close();
            assertEquals(2, allocator.slabCount(), "another hold is still open (a second close changes nothing)");
            outer.close();
            assertEquals(1, allocator.slabCount(), "the last hold gives the empty slab back");
            assertEquals(4L * SLOT, memory.allocatedBytes(MemoryTag.PAGES));
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

    /** 1 MiB pages, 2 per slab: each slab is one huge page. */
    private static final int BIG_PAGE = 1 << 20;

    @Test
    void slabsMoveOntoHugePagesOnlyWhenPreferredAndFull() {
        MemoryManager memory = new MemoryManager(1L << 30);
        List<Runnable> queued = new ArrayList<>();
        try (PageAllocator allocator = new PageAllocator(memory, BIG_PAGE, 2, queued::add)) {
            NativePage[] pages = new NativePage[3];
            for (int index = 0; index < pages.length; index++) {
                pages[index] = allocator.allocate();
                pages[index].segment().set(ValueLayout.JAVA_LONG, 0, 100L + index);
            }
            NativeBlock first = pages[0].slab().block;
            NativeBlock second = pages[2].slab().block;
            assertEquals(List.of(), queued, "nothing is asked for at allocation");
            assertNotAdvised(first);
            assertNotAdvised(second);

            allocator.preferHugePages(pages, 0, pages.length);
            // The full slab is queued; the second, still being filled, is only marked.
            assertEquals(1, queued.size());
            queued.removeFirst().run();
            assertTrue(first.hugePagesPreferred());
            assertFalse(second.hugePagesPreferred());
            assertAdvised(first);
            assertNotAdvised(second);
            assertEquals(100L, pages[0].segment().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(101L, pages[1].segment().get(ValueLayout.JAVA_LONG, 0));

            // Naming the same pages again queues nothing more; taking the marked slab's last page queues it.
            allocator.preferHugePages(pages, 0, pages.length);
            assertEquals(List.of(), queued);
            NativePage last = allocator.allocate();
            assertEquals(1, queued.size());
            queued.removeFirst().run();
            assertTrue(second.hugePagesPreferred());
            assertAdvised(second);
            assertEquals(102L, pages[2].segment().get(ValueLayout.JAVA_LONG, 0));

            // A slab never named stays on ordinary pages, full or not.
            NativePage[] unnamed = {allocator.allocate(), allocator.allocate()};
            assertEquals(List.of(), queued);
            assertNotAdvised(unnamed[0].slab().block);
            allocator.free(last);
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    @Test
    void aQueuedMoveOfAFreedSlabDoesNothing() {
        MemoryManager memory = new MemoryManager(1L << 30);
        List<Runnable> queued = new ArrayList<>();
        try (PageAllocator allocator = new PageAllocator(memory, BIG_PAGE, 2, queued::add)) {
            NativePage[] pages = {allocator.allocate(), allocator.allocate(), null};
            NativeBlock block = pages[0].slab().block;
            allocator.preferHugePages(pages, 0, pages.length);
            assertEquals(1, queued.size());
            allocator.free(pages[0]);
            allocator.free(pages[1]);
            assertEquals(0, allocator.slabCount(), "the emptied slab went back before its move ran");
            queued.removeFirst().run();
            assertFalse(block.hugePagesPreferred());

            // Pages of another allocator are ignored.
            try (PageAllocator other = new PageAllocator(memory, BIG_PAGE, 2, queued::add)) {
                NativePage[] foreign = {other.allocate(), other.allocate()};
                allocator.preferHugePages(foreign, 0, 2);
                assertEquals(List.of(), queued);
            }
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    private static void assertAdvised(NativeBlock block) {
        if (MemoryMappings.flagsVisible()) {
            assertTrue(MemoryMappings.hugePagesAdvised(block.segment().address()));
        }
    }

    private static void assertNotAdvised(NativeBlock block) {
        if (MemoryMappings.flagsVisible()) {
            assertFalse(MemoryMappings.hugePagesAdvised(block.segment().address()));
        }
    }
}
