package dev.parallax.engine.storage;

/**
 * Told by {@link PagedTableStorage#compactPage} which rows of a page move before the compacted page
 * replaces it, so that index entries can follow: the row at {@code keptSlots[n]} (a live row, or a
 * dead one kept because an open snapshot may still see it) moves to slot {@code n} of the same page,
 * the dead rows at {@code removedSlots} go away.
 */
@FunctionalInterface
public interface PageCompactionListener {
    /**
     * Called under the storage's write lock, before the new page is published; the old page can be
     * read with {@link PagedTableStorage#readSlots}. Throwing abandons the compaction of this page
     * (the page stays as it was); the exception reaches the caller of compactPage unchanged.
     */
    void compacting(int pageIndex, int[] keptSlots, int keptCount, int[] removedSlots, int removedCount);
}
