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
    /** The bytes went back to the budget while the block stays mapped ({@link #releaseReservation()}). */
    private boolean reservationReleased;

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

    /**
     * Gives the block's bytes back to the memory budget while it stays mapped: for an empty block
     * kept for reuse ({@link PageAllocator}). {@link #close()} then releases nothing more. Idempotent.
     */
    synchronized void releaseReservation() {
        if (!closed && !reservationReleased) {
            reservationReleased = true;
            owner.release(tag, segment.byteSize());
        }
    }

    /**
     * Charges the bytes to the budget again before the block is reused; the memory manager's 53200
     * when the limit forbids it, the block then staying unreserved. Does nothing when reserved.
     */
    synchronized void reacquireReservation() {
        if (reservationReleased) {
            owner.reserve(tag, segment.byteSize());
            reservationReleased = false;
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            long bytes = segment.byteSize();
            arena.close();
            if (!reservationReleased) {
                owner.release(tag, bytes);
            }
        }
    }
}
