package dev.parallax.engine.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
                // Mapped from the kernel on a huge page boundary, so every 2 MiB of it can be one huge page.
                assertEquals(0, segment.address() % HugePages.SIZE);
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
