package dev.parallax.engine.storage;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * The rows of one table partition in off-heap PAX pages. Readers (scans, any number of threads)
 * and writers (one at a time; writers serialize on the storage) may run concurrently: a scan sees
 * each row that was live when its page was read exactly once, never a torn row.
 */
public interface TableStorage extends AutoCloseable {
    List<DataType> columnTypes();

    /**
     * Appends the live rows of {@code batch} (columns in table order, values already of the column
     * types). Either all rows are appended or, on error (out of memory, value too long), none.
     */
    void append(Batch batch);

    /**
     * Appends the live rows of all {@code batches}, in order, as one step: all rows or none (e.g. a
     * COPY that must leave the table unchanged when memory runs out halfway). The default copies
     * the batches into one and calls {@link #append}; paged storage appends them without copying.
     */
    default void appendAll(List<Batch> batches) {
        if (batches.size() == 1) {
            append(batches.getFirst());
            return;
        }
        int rows = 0;
        for (Batch batch : batches) {
            rows = Math.addExact(rows, batch.selectedCount());
        }
        Batch combined = Batch.create(columnTypes(), Math.max(1, rows));
        int position = 0;
        for (Batch batch : batches) {
            for (int index = 0; index < batch.selectedCount(); index++) {
                int from = batch.position(index);
                for (int column = 0; column < combined.columnCount(); column++) {
                    combined.column(column).copyFrom(batch.column(column), from, position);
                }
                position++;
            }
        }
        combined.setRowCount(position);
        append(combined);
    }

    /** Pages currently allocated to this table. */
    int pageCount();

    /** Live rows. */
    long rowCount();

    /** Bytes of the pages this table holds. */
    long sizeBytes();

    /**
     * Opens a scan over the pages present now, with a snapshot registered as by
     * {@link #openSnapshot}({@link SnapshotUse#SCAN}) until the cursor is closed: the caller owns
     * the cursor and closes it when the scan ends, in a finally block. {@code chunkPages}: 0 sizes
     * chunks by table size and ramps down near the end (PostgreSQL 14's rule); N hands out N pages
     * per claim.
     */
    ScanCursor openScan(int chunkPages);

    /**
     * Counts the starts and ends of the publishes this table takes part in together with other
     * tables (a statement changing several partitions, e.g. moving a row from one to another: see
     * {@link PagedTableStorage#holdSnapshots()}); odd while one is under way. A reader opening
     * snapshots of several tables compares it before and after ({@link ConsistentScans}). The
     * default: storage that never publishes with others.
     */
    default long groupSequence() {
        return 0;
    }

    /**
     * Reads the live rows of page {@code pageIndex} into {@code target}: {@code target}'s column i
     * receives table column {@code columns[i]}. The batch is reset, grown as needed, and holds only
     * live rows afterwards (no selection). Returns the number of rows read.
     */
    int readPage(int pageIndex, int[] columns, Batch target);

    /**
     * Like {@link #readPage(int, int[], Batch)}, but returns the rows visible to {@code snapshot}
     * (null: the rows live now), and when {@code slotsOut} is not null writes each row's slot in
     * the page to it ({@code slotsOut[i]} for the row at position i; the array must hold a page's
     * slots): the row's id is then {@code RowIds.pack(pageIndex, slotsOut[i])}. The default suits
     * storage without dead rows, where the n-th live row is slot n.
     */
    default int readPage(int pageIndex, int[] columns, Batch target, ScanSnapshot snapshot, int[] slotsOut) {
        int rows = readPage(pageIndex, columns, target);
        if (slotsOut != null) {
            for (int row = 0; row < rows; row++) {
                slotsOut[row] = row;
            }
        }
        return rows;
    }

    /** The most row slots a page holds: the size a {@code slotsOut} array of {@link #readPage(int, int[], Batch, ScanSnapshot, int[])} needs. */
    default int pageSlotCapacity() {
        return 1 << 16;
    }

    /**
     * The table's change sequence: it grows with every append, update and delete, so an equal
     * value means the table holds the same rows (indexes built from the rows use it to tell
     * whether they are stale). The default counts rows, enough for append-only storage.
     */
    default long changeSequence() {
        return rowCount();
    }

    /**
     * What a scan starting now may see; null when the storage has no versions (every row always
     * visible). A snapshot read from while VACUUM may run must be registered: use {@link #openSnapshot}.
     */
    default ScanSnapshot snapshot() {
        return null;
    }

    /**
     * Takes a snapshot as {@link #snapshot()} does and registers it until the returned handle is
     * closed: meanwhile VACUUM keeps every row the snapshot can see and renumbers no slot that
     * {@code use} may still address (PostgreSQL's xmin horizon). The caller closes the handle when
     * it stops reading, in a finally block. The default registers nothing: storage without VACUUM.
     */
    default OpenSnapshot openSnapshot(SnapshotUse use) {
        return OpenSnapshot.unregistered(snapshot());
    }

    /**
     * Counts the times VACUUM renumbered row slots (compacted a page; cutting trailing pages off
     * counts too, by two, as their indexes will be reused); odd while a compaction is
     * under way. A reader that looked a row id up (in an index) and read the row checks that the
     * count is even and unchanged across both steps, else looks up again; an index built when the
     * count differed is stale. The default: storage that never moves rows.
     */
    default long relocations() {
        return 0;
    }

    /**
     * Counts the write steps abandoned after they placed rows. Such a step may have entered the
     * rows' ids in a unique index (and removed them, or restored entries it had removed, when it
     * gave up), and the slots it placed rows in are reused by later appends. A reader that looks
     * a key up in an index and then reads the row without the write lock reads this count before
     * the lookup and again after the read: when it moved, the row id may have named another row by
     * then, or the key may have been missing only for that moment, and the reader looks again.
     * The default: storage whose writes never stop halfway.
     */
    default long abandonedSteps() {
        return 0;
    }

    /**
     * Whether the slot {@code rowId} names is published: false while the writer that placed a row
     * there (and may already have entered its key in an index) has not published it, or after it
     * gave the slot up. The default: storage that publishes rows as it writes them.
     */
    default boolean isPublished(long rowId) {
        return true;
    }

    /**
     * Reads the row {@code rowId} (live or dead) into {@code target} like {@link #readRows} with a
     * single row id, when its slot is published ({@link #isPublished}); returns false, reading
     * nothing, when it is not or the row id addresses no page any more (a hole VACUUM left, or a
     * page cut off the end). A point query's read: called once per lookup, so paged storage reads
     * the one row without allocating. The answer holds for the page the call found; a caller that
     * got {@code rowId} from an index checks {@link #relocations()} afterwards as for any row id.
     */
    default boolean readPublishedRow(long rowId, int[] columns, Batch target) {
        if (!isPublished(rowId)) {
            return false;
        }
        readRows(new long[] {rowId}, 0, 1, columns, target);
        return true;
    }

    /**
     * Reads the rows {@code rowIds[from .. from+count)} into {@code target}, in that order:
     * {@code target}'s column i receives table column {@code columns[i]}. A row id packs (page
     * index, slot of the row in the page) as {@code dev.parallax.engine.index.RowIds} does (see
     * {@link #readPage(int, int[], Batch, ScanSnapshot, int[])}); a dead slot still reads its values. The batch is reset, grown as needed, and holds
     * exactly {@code count} rows afterwards (no selection). Returns {@code count}.
     *
     * <p>The default reads each page a run of row ids touches with {@link #readPage}; paged
     * storage reads just the rows asked for.
     *
     * @throws IndexOutOfBoundsException when a row id addresses no live row
     */
    default int readRows(long[] rowIds, int from, int count, int[] columns, Batch target) {
        List<DataType> types = columnTypes();
        List<DataType> readTypes = new java.util.ArrayList<>(columns.length);
        for (int column : columns) {
            readTypes.add(types.get(column));
        }
        Batch page = Batch.create(readTypes, Batch.DEFAULT_CAPACITY);
        target.reset();
        target.ensureCapacity(count);
        int loadedPage = -1;
        int loadedRows = 0;
        for (int index = 0; index < count; index++) {
            long rowId = rowIds[from + index];
            int pageIndex = (int) (rowId >>> 32);
            int row = (int) rowId;
            if (pageIndex != loadedPage) {
                loadedRows = readPage(pageIndex, columns, page);
                loadedPage = pageIndex;
            }
            if (row < 0 || row >= loadedRows) {
                throw new IndexOutOfBoundsException("row " + row + " of page " + pageIndex + " holding " + loadedRows + " live rows");
            }
            for (int column = 0; column < columns.length; column++) {
                target.column(column).copyFrom(page.column(column), row, index);
            }
        }
        target.setRowCount(count);
        return count;
    }

    /**
     * Keeps, in order, the row ids of {@code rowIds[from .. from+count)} that {@code snapshot} sees
     * (published before it was taken and not dead at it), moving them to the front of that range;
     * returns how many were kept. For readers holding row ids from an index that keeps entries of
     * rows deleted or appended since the reader's snapshot. The default: storage without versions,
     * where every row id a reader holds is visible.
     */
    default int retainVisible(long[] rowIds, int from, int count, ScanSnapshot snapshot) {
        return count;
    }

    /**
     * Tells the storage that its rows will be read at random by row id (the table has an index):
     * storage in off-heap pages then moves its settled pages onto huge pages, those written so far
     * and those each later write adds, after that write. A hint, idempotent; the default ignores it.
     */
    default void preferHugePages() {
    }

    /** Frees every page. The storage must not be used afterwards. */
    @Override
    void close();
}
