package dev.parallax.engine.memory;

import java.lang.foreign.MemorySegment;

/**
 * One fixed-size page handed out by a {@link PageAllocator}: a slice of one of its slabs. The
 * handle is owned by whoever allocated it until given back with {@link PageAllocator#free}; its
 * segment must not be touched afterwards.
 */
public final class NativePage {
    private final PageAllocator.Slab slab;
    private final int indexInSlab;
    private final MemorySegment segment;

    NativePage(PageAllocator.Slab slab, int indexInSlab, MemorySegment segment) {
        this.slab = slab;
        this.indexInSlab = indexInSlab;
        this.segment = segment;
    }

    /** The page's bytes (64-byte aligned, {@link PageAllocator#pageSizeBytes()} long). */
    public MemorySegment segment() {
        return segment;
    }

    PageAllocator.Slab slab() {
        return slab;
    }

    int indexInSlab() {
        return indexInSlab;
    }
}
