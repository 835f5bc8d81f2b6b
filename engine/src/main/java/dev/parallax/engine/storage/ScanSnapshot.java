package dev.parallax.engine.storage;

/**
 * What one scan may see of a table: the rows published before it started and not dead then.
 * Storage is append-only between VACUUMs, so "published before" is a position: the first
 * {@code pageCount} pages, the last of them up to {@code lastPageSlots} slots. A row that died
 * later (its stamp is greater than {@code sequence}) is still visible, so a scan running while
 * another session updates a row sees exactly one of its versions, never both and never none.
 *
 * @param sequence      the table's change sequence when the scan started (even: no publish under way)
 * @param pageCount     pages the scan covers
 * @param lastPageSlots row slots of page {@code pageCount - 1} the scan covers
 */
public record ScanSnapshot(long sequence, int pageCount, int lastPageSlots) {
}
