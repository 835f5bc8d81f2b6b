package dev.parallax.engine.storage;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.UuidValue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where everything lives in a PAX page of one table. All pages of a table share one layout, so a
 * reader finds column {@code c}'s values at a fixed offset without parsing the page.
 * <pre>
 * [header: row count | flags | heap start | dead count | clean from | newest death | null count per column ]  64-byte aligned
 * [dead-slot bitmap, rowsPerPage bits: set = the slot's row is dead (deleted, or replaced by a newer version)]
 * [deletion stamps, rowsPerPage longs: of a dead slot, the table's change sequence at which its row
 *  died; of a live slot, anything]               (created transaction ids go here later)
 * per column: [null bitmap, rowsPerPage bits]
 *             [fixed width: rowsPerPage values at the type's native width
 *              | variable width: int offset[rowsPerPage], int length[rowsPerPage]]
 * [free space ... variable-width heap growing down from the page's end]
 * </pre>
 * The row count is written last, with release semantics, when rows are published; readers load it
 * with acquire semantics and then see every byte of those rows.
 * <p>
 * Liveness is the dead-slot bitmap: a scan or VACUUM finds the dead slots of a page in
 * {@code rowsPerPage / 8} bytes instead of reading every row's 8-byte stamp (the stamps were 17–20%
 * of VACUUM's profile, and about a fifth of the bytes a compaction moved: VacuumBenchmark's pages
 * hold 2,164 rows of 20 value bytes and an 8-byte stamp each). A stamp is read only for a dead
 * slot, and only when the page's newest death is younger than what the reader may ignore (an open
 * snapshot older than some death on the page); a live slot's stamp is never written, so compacted
 * copies and appends skip the stamps entirely. A death is published stamp first, then the page's
 * newest death, then the bit with release semantics: a reader that loads a bitmap word with
 * acquire semantics and sees a bit set also sees that slot's stamp and a newest death at least as
 * young.
 */
public final class PageLayout {
    static final long ROW_COUNT_OFFSET = 0;
    static final long FLAGS_OFFSET = 4;
    static final long HEAP_START_OFFSET = 8;
    /** Dead row slots of the page (deleted, or replaced by a newer version), for scans and VACUUM. */
    static final long DEAD_COUNT_OFFSET = 12;
    /**
     * The first slot from which every slot has a clear dead bit and zero null bits (a page
     * comes zeroed from {@link dev.parallax.engine.memory.PageAllocator#allocate()}, so 0): appends
     * there write only the values' cache lines instead of also clearing bits, which
     * matters when each append lands on another table's page (an upsert into 1024 hash
     * partitions). Writer-only: readers never read it.
     */
    static final long CLEAN_FROM_OFFSET = 16;
    /**
     * The largest deletion stamp of the page's dead slots (0 when none died): a reader that may
     * ignore every death up to it (no open snapshot older than it) decides liveness from the
     * bitmap alone. A long at an 8-byte aligned offset.
     */
    static final long NEWEST_DEATH_OFFSET = 24;
    static final long NULL_COUNTS_OFFSET = 32;

    /** How a column is stored, fixed once per table so readers switch once per column and page. */
    static final int STORAGE_LONG = 0;
    static final int STORAGE_INT = 1;
    static final int STORAGE_SHORT = 2;
    static final int STORAGE_BYTE = 3;
    static final int STORAGE_DOUBLE = 4;
    static final int STORAGE_FLOAT = 5;
    static final int STORAGE_VARIABLE = 6;

    private final int pageSizeBytes;
    private final int rowsPerPage;
    private final int headerBytes;
    private final long deadBitmapOffset;
    private final long deletionStampsOffset;
    private final long[] nullBitmapOffsets;
    private final long[] dataOffsets;
    private final int[] storageKinds;
    private final int[] widths;
    private final int fixedAreaEnd;
    private final int fixedBytesPerRow;
    private final boolean hasVariableColumns;

    /**
     * Layouts handed out, by what they are made of, so that tables of the same columns and page size
     * share one: an upsert into 1024 hash partitions read the layout object and its four arrays of
     * the partition it landed on, five cold lines (two dependent loads deep) per statement when each
     * partition had its own, where one table's stayed in the cache. Layouts are immutable and small;
     * the cache forgets everything once it holds {@value #SHARED_LAYOUTS_LIMIT} (a layout already handed out stays valid).
     */
    private static final ConcurrentHashMap<LayoutKey, PageLayout> SHARED = new ConcurrentHashMap<>();
    private static final int SHARED_LAYOUTS_LIMIT = 4096;

    /** What a layout is computed from: {@link #PageLayout(int, int, int[], int[])}'s arguments. */
    private record LayoutKey(int pageSizeBytes, int rowsPerPage, int[] storageKinds, int[] widths) {
        @Override
        public boolean equals(Object other) {
            return other instanceof LayoutKey key && key.pageSizeBytes == pageSizeBytes && key.rowsPerPage == rowsPerPage
                    && Arrays.equals(key.storageKinds, storageKinds) && Arrays.equals(key.widths, widths);
        }

        @Override
        public int hashCode() {
            return (pageSizeBytes * 31 + rowsPerPage) * 31 + Arrays.hashCode(storageKinds) * 17 + Arrays.hashCode(widths);
        }
    }

    private PageLayout(int pageSizeBytes, int rowsPerPage, int[] storageKinds, int[] widths) {
        this.pageSizeBytes = pageSizeBytes;
        this.rowsPerPage = rowsPerPage;
        this.storageKinds = storageKinds;
        this.widths = widths;
        int columnCount = storageKinds.length;
        this.headerBytes = alignTo64(NULL_COUNTS_OFFSET + 4L * columnCount);
        long bitmapBytes = bitmapBytes(rowsPerPage);
        long offset = headerBytes;
        this.deadBitmapOffset = offset;
        offset += bitmapBytes;
        this.deletionStampsOffset = offset;
        offset += 8L * rowsPerPage;
        this.nullBitmapOffsets = new long[columnCount];
        this.dataOffsets = new long[columnCount];
        boolean variable = false;
        int perRow = 0;
        for (int column = 0; column < columnCount; column++) {
            nullBitmapOffsets[column] = offset;
            offset += bitmapBytes;
            dataOffsets[column] = offset;
            offset = alignTo8(offset + (long) rowsPerPage * widths[column]);
            perRow += widths[column];
            variable |= storageKinds[column] == STORAGE_VARIABLE;
        }
        this.fixedAreaEnd = (int) Math.min(offset, Integer.MAX_VALUE);
        this.fixedBytesPerRow = perRow;
        this.hasVariableColumns = variable;
    }

    /**
     * The layout for {@code columnTypes} in pages of {@code pageSizeBytes}: as many rows as fit when
     * variable-width values have their estimated size, so that for typical data the fixed area and
     * the heap fill up together.
     */
    public static PageLayout forColumns(List<DataType> columnTypes, int pageSizeBytes) {
        int columnCount = columnTypes.size();
        int[] storageKinds = new int[columnCount];
        int[] widths = new int[columnCount];
        long estimatedRowBytes = 0;
        for (int column = 0; column < columnCount; column++) {
            DataType type = columnTypes.get(column);
            storageKinds[column] = storageKind(type.kind());
            widths[column] = storageKinds[column] == STORAGE_VARIABLE ? 8 : type.kind().storageWidth();
            estimatedRowBytes += widths[column] + estimatedVariableBytes(type);
        }
        // Bits per row: one null bit per column, the dead bit and the 64-bit deletion stamp.
        long estimatedRowBits = estimatedRowBytes * 8 + columnCount + 1 + 64;
        long usable = pageSizeBytes - alignTo64(NULL_COUNTS_OFFSET + 4L * columnCount) - 8L * (columnCount + 2) * 2;
        int rows = (int) Math.max(1, Math.min(Integer.MAX_VALUE / 16, usable * 8 / Math.max(1, estimatedRowBits)));
        PageLayout layout = new PageLayout(pageSizeBytes, rows, storageKinds, widths);
        while (layout.fixedAreaEnd > pageSizeBytes - (layout.hasVariableColumns ? 1 : 0) && rows > 1) {
            rows = Math.max(1, rows - Math.max(1, rows / 64));
            layout = new PageLayout(pageSizeBytes, rows, storageKinds, widths);
        }
        if (layout.fixedAreaEnd > pageSizeBytes) {
            throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "row is too big: size %d, maximum size %d", layout.fixedAreaEnd, pageSizeBytes);
        }
        if (SHARED.size() >= SHARED_LAYOUTS_LIMIT) {
            SHARED.clear();
        }
        PageLayout shared = SHARED.putIfAbsent(new LayoutKey(pageSizeBytes, rows, storageKinds, widths), layout);
        return shared == null ? layout : shared;
    }

    private static int storageKind(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> STORAGE_BYTE;
            case SMALLINT -> STORAGE_SHORT;
            case INTEGER, DATE -> STORAGE_INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, NULL -> STORAGE_LONG;
            case REAL -> STORAGE_FLOAT;
            case DOUBLE -> STORAGE_DOUBLE;
            case CHAR, VARCHAR, TEXT, BIT, VARBIT, ARRAY, UUID -> STORAGE_VARIABLE;
        };
    }

    /** Typical heap bytes of one value: exact for char(n) and bit(n), a guess for the varying kinds. */
    private static int estimatedVariableBytes(DataType type) {
        int length = type.length();
        boolean bounded = length != DataType.UNBOUNDED;
        return switch (type.kind()) {
            case CHAR -> bounded ? length : 1;
            case VARCHAR -> bounded ? Math.min(length, (length + 1) / 2 + 4) : 32;
            case TEXT -> 32;
            case BIT -> 4 + (bounded ? (length + 7) / 8 : 1);
            case VARBIT -> 4 + (bounded ? (length + 7) / 8 : 8);
            case ARRAY -> 48;
            case UUID -> UuidValue.BYTES;
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, DATE, TIMESTAMP, TIMESTAMPTZ,
                 INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, NULL -> 0;
        };
    }

    private static int alignTo64(long bytes) {
        return (int) ((bytes + 63) & ~63L);
    }

    private static long alignTo8(long bytes) {
        return (bytes + 7) & ~7L;
    }

    static long bitmapBytes(int rows) {
        return alignTo8((rows + 7L) / 8);
    }

    public int pageSizeBytes() {
        return pageSizeBytes;
    }

    /** Row slots per page; a page is full when they are used or its heap is. */
    public int rowsPerPage() {
        return rowsPerPage;
    }

    /** Bytes of the fixed part of one row (values and offset/length slots, without bitmaps). */
    public int fixedBytesPerRow() {
        return fixedBytesPerRow;
    }

    /** Heap bytes of an empty page: the most variable-width data one row can hold. */
    public int emptyPageHeapBytes() {
        return pageSizeBytes - fixedAreaEnd;
    }

    int fixedAreaEnd() {
        return fixedAreaEnd;
    }

    boolean hasVariableColumns() {
        return hasVariableColumns;
    }

    /** The dead-slot bitmap: bit {@code slot} (of the long at {@code 8 * (slot / 64)}) set once the slot's row died. */
    long deadBitmapOffset() {
        return deadBitmapOffset;
    }

    /** The long deletion stamp of each row slot; meaningful only while the slot's dead bit is set. */
    long deletionStampsOffset() {
        return deletionStampsOffset;
    }

    long nullBitmapOffset(int column) {
        return nullBitmapOffsets[column];
    }

    long nullCountOffset(int column) {
        return NULL_COUNTS_OFFSET + 4L * column;
    }

    /** Fixed width: the first value. Variable width: the offset array, followed by the length array. */
    long dataOffset(int column) {
        return dataOffsets[column];
    }

    /** Variable width: the int lengths array. */
    long lengthsOffset(int column) {
        return dataOffsets[column] + 4L * rowsPerPage;
    }

    int storageKind(int column) {
        return storageKinds[column];
    }

    /** Bytes of a fixed-width value of {@code column}; a variable-width column's offset and length slots take 8. */
    int width(int column) {
        return widths[column];
    }

    int columnCount() {
        return storageKinds.length;
    }
}
