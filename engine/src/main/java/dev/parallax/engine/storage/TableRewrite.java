package dev.parallax.engine.storage;

/**
 * What {@link PagedTableStorage#rewriteCompactly} did.
 *
 * @param pagesBefore pages the table held before (holes included)
 * @param pagesAfter  pages of the rewritten table
 * @param rowsRemoved dead rows left behind
 * @param rowsKept    live rows copied
 */
public record TableRewrite(int pagesBefore, int pagesAfter, long rowsRemoved, long rowsKept) {
}
