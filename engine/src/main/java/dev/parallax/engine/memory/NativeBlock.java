package dev.parallax.engine.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** One off-heap allocation from a {@link MemoryManager}; {@link #close()} frees it (once, idempotent). */
public final class NativeBlock implements AutoCloseable {
    private final MemoryManager owner;
    private final MemoryTag tag;
    private final Arena arena;
    private final MemorySegment segment;
    private boolean closed;

    NativeBlock(MemoryManager owner, MemoryTag tag, Arena arena, MemorySegment segment) {
        this.owner = owner;
        this.tag = tag;
        this.arena = arena;
        this.segment = segment;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    public MemoryTag tag() {
        return tag;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            long bytes = segment.byteSize();
            arena.close();
            owner.release(tag, bytes);
        }
    }
}
