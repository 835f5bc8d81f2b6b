package dev.parallax.engine.storage;

/**
 * What {@link PagedTableStorage#compactPage} did to one page.
 *
 * @param liveRows    live rows on the page afterwards (on the page before, for a page left alone)
 * @param removedRows dead rows reclaimed
 * @param pageFreed   true when no live row was left and the page went back to the allocator
 */
public record PageCompaction(int liveRows, int removedRows, boolean pageFreed) {
    /** A hole: nothing to do. */
    public static final PageCompaction NOTHING = new PageCompaction(0, 0, false);
}
