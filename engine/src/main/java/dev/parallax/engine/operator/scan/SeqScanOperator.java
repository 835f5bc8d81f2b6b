package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

/**
 * Reads a table page by page. Serial and parallel scans differ only in their cursor: a serial
 * scan owns one, the participants of a Parallel Seq Scan share their Gather's, so each claims
 * chunks of pages that no other participant reads (local state: the chunk being read).
 * Each claim reports the statement's progress (phase {@code scan <table>}, pages claimed so far of
 * the table's pages): once per chunk, never per page or row, so the cost stays out of the loop.
 * A serial scan owns its cursor and closes it (releasing the snapshot it registered) on
 * {@link #close()}; a shared cursor is closed by its Gather once every participant stopped.
 */
public final class SeqScanOperator implements Operator {
    private final ExecutionContext context;
    private final TableStorage storage;
    private final int[] columns;
    private final ScanCursor cursor;
    private final boolean ownsCursor;
    /** Shared by all participants: rows replaced or deleted after the scan began are still seen, their new versions not. */
    private final ScanSnapshot snapshot;
    private final Batch batch;
    /** "scan " + table name, built once: updates must not build strings. */
    private final String progressPhase;
    private final long totalPages;
    /** The table columns read: {@link #columns} without its trailing pseudo-columns. */
    private final int[] tableColumns;
    /** Output positions of the pseudo-columns {@link SeqScanNode#ROW_ID} and {@link SeqScanNode#PARTITION_ORDINAL}, or -1. */
    private final int rowIdPosition;
    private final int partitionPosition;
    /** The value of {@link SeqScanNode#PARTITION_ORDINAL}: the scanned partition's ordinal in its parent, 0 for a plain table. */
    private final int partitionOrdinal;
    /** Slots of the rows read from a page, when row ids are read; else null. */
    private final int[] slots;
    private int nextPage;
    private int chunkEnd;

    /** A scan that owns {@code cursor} and reports no progress (its table has no name to show). */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch) {
        this(context, storage, columns, cursor, batch, null, true);
    }

    /** A scan of table {@code tableName} that owns {@code cursor} and reports its progress; null {@code tableName} reports none. */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch,
                           String tableName) {
        this(context, storage, columns, cursor, batch, tableName, true, 0);
    }

    /**
     * A scan of table {@code tableName} (null: reports no progress) reading with {@code cursor};
     * {@code ownsCursor}: whether {@link #close()} closes the cursor (false for a cursor shared by
     * the participants of a Gather).
     */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch,
                           String tableName, boolean ownsCursor) {
        this(context, storage, columns, cursor, batch, tableName, ownsCursor, 0);
    }

    /**
     * As above; {@code columns} may end with the pseudo-columns of {@link SeqScanNode}, and
     * {@code partitionOrdinal} is the value of {@link SeqScanNode#PARTITION_ORDINAL}.
     */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch,
                           String tableName, boolean ownsCursor, int partitionOrdinal) {
        this.context = context;
        this.storage = storage;
        this.columns = columns;
        this.cursor = cursor;
        this.ownsCursor = ownsCursor;
        this.snapshot = cursor.snapshot();
        this.batch = batch;
        this.progressPhase = tableName == null ? null : "scan " + tableName;
        this.totalPages = storage.pageCount();
        int tableColumnCount = 0;
        int rowId = -1;
        int partition = -1;
        for (int position = 0; position < columns.length; position++) {
            switch (columns[position]) {
                case SeqScanNode.ROW_ID -> rowId = position;
                case SeqScanNode.PARTITION_ORDINAL -> partition = position;
                default -> tableColumnCount++;
            }
        }
        this.tableColumns = tableColumnCount == columns.length ? columns : java.util.Arrays.copyOf(columns, tableColumnCount);
        this.rowIdPosition = rowId;
        this.partitionPosition = partition;
        this.partitionOrdinal = partitionOrdinal;
        this.slots = rowId >= 0 ? new int[Math.max(Batch.DEFAULT_CAPACITY, storage.pageSlotCapacity())] : null;
    }

    @Override
    public Batch next() {
        while (true) {
            context.checkCancelled();
            if (nextPage >= chunkEnd) {
                long chunk = cursor.nextChunk();
                if (chunk == ScanCursor.EXHAUSTED) {
                    return null;
                }
                nextPage = ScanCursor.firstPage(chunk);
                chunkEnd = nextPage + ScanCursor.pageCount(chunk);
                if (progressPhase != null) {
                    // Chunks are handed out in page order, so the end of this one counts the pages
                    // claimed by all participants (a racing participant may report a little less).
                    context.progress().update(progressPhase, chunkEnd, Math.max(totalPages, chunkEnd), "pages");
                }
                continue;
            }
            int pageIndex = nextPage++;
            int rows = storage.readPage(pageIndex, tableColumns, batch, snapshot, slots);
            if (rows > 0) {
                if (tableColumns != columns) {
                    fillPseudoColumns(pageIndex, rows);
                }
                return batch;
            }
        }
    }

    /** Writes the row ids (page, slot) and the partition ordinal of the {@code rows} rows just read. */
    private void fillPseudoColumns(int pageIndex, int rows) {
        if (rowIdPosition >= 0) {
            LongVector rowIds = (LongVector) batch.column(rowIdPosition);
            for (int row = 0; row < rows; row++) {
                rowIds.set(row, RowIds.pack(pageIndex, slots[row]));
            }
        }
        if (partitionPosition >= 0) {
            LongVector ordinals = (LongVector) batch.column(partitionPosition);
            for (int row = 0; row < rows; row++) {
                ordinals.set(row, partitionOrdinal);
            }
        }
    }

    @Override
    public void close() {
        // Pages belong to the table and the batch is on-heap: only the snapshot is held.
        if (ownsCursor) {
            cursor.close();
        }
    }
}
