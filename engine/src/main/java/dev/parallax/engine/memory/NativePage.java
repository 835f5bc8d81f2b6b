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
    /** Set under the allocator's monitor when handed out; read by the new owner afterwards. */
    private boolean handedOutBefore;
    private boolean heldOldBytes;

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

    /** Called by the slab under the allocator's monitor each time the page is handed out. */
    void markHandedOut() {
        heldOldBytes = handedOutBefore;
        handedOutBefore = true;
    }

    /**
     * True when, as last handed out, the page still held a previous owner's bytes (it was not
     * fresh): a page from {@link PageAllocator#allocateForOverwrite()} holds zeros only when false.
     */
    public boolean heldOldBytes() {
        return heldOldBytes;
    }

    int indexInSlab() {
        return indexInSlab;
    }
}
