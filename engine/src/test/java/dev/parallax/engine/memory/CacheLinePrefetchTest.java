package dev.parallax.engine.memory;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CacheLinePrefetchTest {
    /** The machines Parallax is built and measured on run x86-64 Linux: there the fallback would be a silent slowdown. */
    @Test
    void isAvailableOnX86LinuxWithNativeAccess() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            assertTrue(CacheLinePrefetch.available());
        }
    }

    /**
     * All ten arguments reach the function (a wrong encoding of a stack argument would crash the
     * JVM here, not return), any address is allowed, and memory is left as it was.
     */
    @Test
    void prefetchesMappedUnmappedAndNullAddressesWithoutEffect() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(1 << 16, 64);
            for (int offset = 0; offset < memory.byteSize(); offset += 8) {
                memory.set(ValueLayout.JAVA_LONG, offset, offset * 31L);
            }
            long base = memory.address();
            for (int round = 0; round < 100_000; round++) {
                long at = base + (round * 4160L) % memory.byteSize();
                CacheLinePrefetch.prefetch(at, base, base + 64, base + 128, 0L, -1L, Long.MIN_VALUE, 0x7fff_ffff_f000L, base + 192, 1L);
            }
            for (int offset = 0; offset < memory.byteSize(); offset += 8) {
                assertEquals(offset * 31L, memory.get(ValueLayout.JAVA_LONG, offset));
            }
        }
    }
}
