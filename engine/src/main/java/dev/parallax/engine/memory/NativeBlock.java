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
    private boolean hugePagesPreferred;

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

    /**
     * Moves this block onto huge pages where the platform offers them: advises the kernel and
     * collapses the memory already touched, in the calling thread (a copy: 2–4 ms per 2 MiB huge
     * page on this project's machine, so call it off the statement's path where possible). For
     * memory that has settled and will be read at random. Best effort and idempotent: does nothing
     * once closed or already done, and a refusal by the kernel leaves the memory as it was. Holds
     * the block's monitor meanwhile, so that {@link #close()} cannot unmap it under the call.
     */
    public synchronized void preferHugePages() {
        if (!closed && !hugePagesPreferred) {
            hugePagesPreferred = true;
            HugePages.adviseAndCollapse(segment.address(), segment.byteSize());
        }
    }

    /** Whether {@link #preferHugePages()} ran on this block (whatever the kernel made of it). */
    public synchronized boolean hugePagesPreferred() {
        return hugePagesPreferred;
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
