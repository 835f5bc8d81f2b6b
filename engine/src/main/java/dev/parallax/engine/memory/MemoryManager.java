package dev.parallax.engine.memory;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The database's off-heap budget. Every off-heap allocation goes through {@link #allocate} with a
 * tag and comes back through {@link #free}; the total is bounded by the limit given at construction,
 * and running out is an error (53200) that leaves the caller's structures as they were, never a crash.
 * Thread-safe.
 */
public final class MemoryManager {
    private final long limitBytes;
    private final AtomicLong totalBytes = new AtomicLong();
    private final AtomicLongArray bytesByTag = new AtomicLongArray(MemoryTag.values().length);

    public MemoryManager(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("memory limit must be positive: " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** Reserves {@code bytes} against the limit without allocating (for memory held elsewhere, e.g. Chronicle Map). */
    public void reserve(MemoryTag tag, long bytes) {
        long total = totalBytes.addAndGet(bytes);
        if (total > limitBytes) {
            totalBytes.addAndGet(-bytes);
            throw new ParallaxException(SqlState.OUT_OF_MEMORY, "out of memory",
                    String.format("Failed on request of size %d bytes (%s); %d of %d bytes of parallax.memory_limit are in use.",
                            bytes, tag.name().toLowerCase(), total - bytes, limitBytes),
                    "Drop tables, lower work_mem, or start Parallax with a larger memory limit.", 0, null);
        }
        bytesByTag.addAndGet(tag.ordinal(), bytes);
    }

    /** Returns a reservation made with {@link #reserve}. */
    public void release(MemoryTag tag, long bytes) {
        totalBytes.addAndGet(-bytes);
        bytesByTag.addAndGet(tag.ordinal(), -bytes);
    }

    /**
     * Allocates zeroed off-heap memory, aligned to 64 bytes, charged to {@code tag}. The block
     * belongs to the caller until closed; closing returns the bytes to the budget. Meant for large
     * allocations (slabs, hash table arrays): each block is one shared arena. A block of at least
     * one huge page is mapped from the kernel on a huge page boundary, on ordinary pages whatever the
     * tag: memory being filled (a bulk load, a table rebuilt by each statement) faults in far cheaper
     * that way. Its owner moves it onto huge pages once it has settled and will be read at random
     * ({@link NativeBlock#preferHugePages()}; {@link HugePages} explains both halves).
     */
    public NativeBlock allocate(MemoryTag tag, long bytes) {
        reserve(tag, bytes);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment = HugePages.map(bytes, arena);
            return new NativeBlock(this, tag, arena, segment != null ? segment : arena.allocate(bytes, 64));
        } catch (OutOfMemoryError osRefused) {
            arena.close();
            release(tag, bytes);
            throw new ParallaxException(SqlState.OUT_OF_MEMORY, "out of memory: the operating system refused " + bytes + " bytes", osRefused);
        }
    }

    public long limitBytes() {
        return limitBytes;
    }

    public long allocatedBytes() {
        return totalBytes.get();
    }

    public long allocatedBytes(MemoryTag tag) {
        return bytesByTag.get(tag.ordinal());
    }

    public Map<MemoryTag, Long> allocatedByTag() {
        Map<MemoryTag, Long> result = new EnumMap<>(MemoryTag.class);
        for (MemoryTag tag : MemoryTag.values()) {
            result.put(tag, allocatedBytes(tag));
        }
        return result;
    }
}
