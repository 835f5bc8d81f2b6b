package dev.parallax.engine.index;

/**
 * Packs a row's address (page index, row within the page) into one 64-bit row id, the value an
 * index stores. The page index takes the high 32 bits and the row the low 32, so row ids order
 * like (page, row) and no valid id is negative: {@link #ABSENT} (-1) can mean "no row".
 */
public final class RowIds {
    /** What lookups return when a key has no row. */
    public static final long ABSENT = -1L;

    private RowIds() {
    }

    /** The row id of row {@code rowInPage} of page {@code pageIndex}; both must be non-negative. */
    public static long pack(int pageIndex, int rowInPage) {
        if (pageIndex < 0 || rowInPage < 0) {
            throw new IllegalArgumentException("page index and row must be non-negative: " + pageIndex + ", " + rowInPage);
        }
        return ((long) pageIndex << 32) | rowInPage;
    }

    public static int pageIndex(long rowId) {
        return (int) (rowId >>> 32);
    }

    public static int row(long rowId) {
        return (int) rowId;
    }
}
