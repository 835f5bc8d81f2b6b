package dev.parallax.engine.storage;

import dev.parallax.engine.memory.NativePage;

/**
 * A page compaction made ready outside the storage's locks ({@link PagedTableStorage#prepareCompaction}):
 * which slots go, and the compacted copy of the rest on a fresh page. Publishing it
 * ({@link PagedTableStorage#publishCompaction}) checks under the locks that nothing changed the
 * table since, and compacts again under them when something did. A page with nothing to do
 * carries its {@link #outcome()} at once.
 */
public final class PreparedCompaction {
    final int pageIndex;
    /** The page the copy was made from: the publish checks it is still the one in place. */
    final NativePage source;
    /** The storage's change sequence when the slots were chosen: the publish checks it did not move. */
    final long sequence;
    final int[] keptSlots;
    final int keptCount;
    final int keptDead;
    final int[] removedSlots;
    final int removedCount;
    /** The compacted copy, or null when no row is kept (the page becomes a hole). */
    NativePage replacement;
    private final PageCompaction outcome;

    /** A page with nothing to compact (a hole, no removable dead row, or a page an open snapshot pins). */
    PreparedCompaction(PageCompaction outcome) {
        this.pageIndex = -1;
        this.source = null;
        this.sequence = 0;
        this.keptSlots = null;
        this.keptCount = 0;
        this.keptDead = 0;
        this.removedSlots = null;
        this.removedCount = 0;
        this.outcome = outcome;
    }

    PreparedCompaction(int pageIndex, NativePage source, long sequence, int[] keptSlots, int keptCount, int keptDead,
                       int[] removedSlots, int removedCount) {
        this.pageIndex = pageIndex;
        this.source = source;
        this.sequence = sequence;
        this.keptSlots = keptSlots;
        this.keptCount = keptCount;
        this.keptDead = keptDead;
        this.removedSlots = removedSlots;
        this.removedCount = removedCount;
        this.outcome = null;
    }

    /** True when there is nothing to publish: {@link #outcome()} is what the page needed. */
    public boolean isDone() {
        return outcome != null;
    }

    /** The result for a page with nothing to compact; null for one that must be published. */
    public PageCompaction outcome() {
        return outcome;
    }
}
