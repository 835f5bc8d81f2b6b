package dev.parallax.engine.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class MemoryManagerTest {
    @Test
    void largeBlocksAreZeroedWritableAlignedAndReturnedOnClose() {
        MemoryManager memory = new MemoryManager(64L << 20);
        long bytes = 5 * HugePages.SIZE + 12_345;
        try (NativeBlock block = memory.allocate(MemoryTag.PAGES, bytes)) {
            MemorySegment segment = block.segment();
            assertEquals(bytes, block.byteSize());
            assertEquals(bytes, memory.allocatedBytes(MemoryTag.PAGES));
            if (HugePages.available()) {
                // Mapped from the kernel on a huge page boundary, so every 2 MiB of it can become one huge
                // page later, but not advised yet: fresh memory faults in cheaper on ordinary pages.
                assertEquals(0, segment.address() % HugePages.SIZE);
                assertFalse(MemoryMappings.hugePagesAdvised(segment.address()));
                assertFalse(MemoryMappings.hugePagesAdvised(segment.address() + bytes - 1));
                assertFalse(block.hugePagesPreferred());
            } else {
                assertEquals(0, segment.address() % 64);
            }
            for (long offset = 0; offset < bytes; offset += 4096) {
                assertEquals(0, segment.get(ValueLayout.JAVA_BYTE, offset));
            }
            assertEquals(0, segment.get(ValueLayout.JAVA_BYTE, bytes - 1));
            segment.set(ValueLayout.JAVA_LONG, 0, 42L);
            segment.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 7);
            assertEquals(42L, segment.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(7, segment.get(ValueLayout.JAVA_BYTE, bytes - 1));
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void smallBlocksAreZeroedAndAligned() {
        MemoryManager memory = new MemoryManager(1L << 20);
        NativeBlock block = memory.allocate(MemoryTag.PAGES, 100_000);
        assertEquals(0, block.segment().address() % 64);
        for (long offset = 0; offset < 100_000; offset++) {
            assertEquals(0, block.segment().get(ValueLayout.JAVA_BYTE, offset));
        }
        block.close();
        block.close();
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void noTagGetsHugePagesAtAllocation() {
        MemoryManager memory = new MemoryManager(64L << 20);
        for (MemoryTag tag : MemoryTag.values()) {
            try (NativeBlock block = memory.allocate(tag, 2 * HugePages.SIZE)) {
                block.segment().fill((byte) 1);
                if (MemoryMappings.flagsVisible()) {
                    assertFalse(MemoryMappings.hugePagesAdvised(block.segment().address()), tag.name());
                }
            }
        }
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void preferringHugePagesAdvisesTheWholeBlockAndKeepsItsContents() {
        MemoryManager memory = new MemoryManager(64L << 20);
        long bytes = 3 * HugePages.SIZE;
        NativeBlock block = memory.allocate(MemoryTag.PAGES, bytes);
        MemorySegment segment = block.segment();
        for (long offset = 0; offset < bytes; offset += 4096) {
            segment.set(ValueLayout.JAVA_LONG, offset, offset ^ 0x5DEECE66DL);
        }
        block.preferHugePages();
        block.preferHugePages();
        assertTrue(block.hugePagesPreferred());
        if (MemoryMappings.flagsVisible()) {
            assertTrue(MemoryMappings.hugePagesAdvised(segment.address()));
            assertTrue(MemoryMappings.hugePagesAdvised(segment.address() + bytes - 1));
        }
        for (long offset = 0; offset < bytes; offset += 4096) {
            assertEquals(offset ^ 0x5DEECE66DL, segment.get(ValueLayout.JAVA_LONG, offset));
        }
        block.close();
        // Closed: nothing left to advise, and nothing happens.
        block.preferHugePages();
        assertEquals(0, memory.allocatedBytes());
    }

    @Test
    void aRefusedCollapseIsHarmless() {
        // Below one huge page there is nothing to collapse; nobody can map an address at 2^62 (above any
        // user address space), so the kernel refuses both calls there.
        assertFalse(HugePages.adviseAndCollapse(0, 4096));
        assertFalse(HugePages.adviseAndCollapse(1L << 62, 4 * HugePages.SIZE));
        // A small block (below one huge page) is an ordinary arena allocation: preferring huge pages is a no-op.
        MemoryManager memory = new MemoryManager(1L << 20);
        try (NativeBlock block = memory.allocate(MemoryTag.PAGES, 100_000)) {
            block.segment().set(ValueLayout.JAVA_LONG, 8, 7L);
            block.preferHugePages();
            assertEquals(7L, block.segment().get(ValueLayout.JAVA_LONG, 8));
        }
    }

    @Test
    void adviceOnAnyRangeIsHarmless() {
        MemoryManager memory = new MemoryManager(64L << 20);
        try (NativeBlock block = memory.allocate(MemoryTag.PAGES, 4 * HugePages.SIZE)) {
            MemorySegment segment = block.segment();
            segment.set(ValueLayout.JAVA_LONG, HugePages.SIZE + 8, 99L);
            // Unaligned, smaller than one huge page, and a range whose memory was already written: the
            // contents must survive the collapse onto huge pages.
            HugePages.adviseAndCollapse(segment.address() + 100, 4096);
            HugePages.adviseAndCollapse(segment.address() + 100, 4 * HugePages.SIZE - 200);
            HugePages.adviseAndCollapse(segment.address(), 4 * HugePages.SIZE);
            assertEquals(99L, segment.get(ValueLayout.JAVA_LONG, HugePages.SIZE + 8));
            assertEquals(0L, segment.get(ValueLayout.JAVA_LONG, 3 * HugePages.SIZE));
        }
        assertEquals(0, memory.allocatedBytes());
    }
}
