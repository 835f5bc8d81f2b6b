package dev.parallax.engine.storage;

/**
 * What {@link PagedTableStorage#compactPage} did to one page.
 *
 * @param liveRows     live rows on the page afterwards (on the page before, for a page left alone)
 * @param removedRows  dead rows reclaimed
 * @param deadRowsKept dead rows left on the page because an open snapshot may still see them (or
 *                     renumbering the page is not allowed now): PostgreSQL's "dead but not yet removable"
 * @param pageFreed    true when no row was left and the page went back to the allocator
 */
public record PageCompaction(int liveRows, int removedRows, int deadRowsKept, boolean pageFreed) {
    /** A hole: nothing to do. */
    public static final PageCompaction NOTHING = new PageCompaction(0, 0, 0, false);
}
