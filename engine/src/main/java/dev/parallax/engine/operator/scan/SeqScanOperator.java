package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;

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
    private int nextPage;
    private int chunkEnd;

    /** A scan that owns {@code cursor} and reports no progress (its table has no name to show). */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch) {
        this(context, storage, columns, cursor, batch, null, true);
    }

    /** A scan of table {@code tableName} that owns {@code cursor} and reports its progress; null {@code tableName} reports none. */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch,
                           String tableName) {
        this(context, storage, columns, cursor, batch, tableName, true);
    }

    /**
     * A scan of table {@code tableName} (null: reports no progress) reading with {@code cursor};
     * {@code ownsCursor}: whether {@link #close()} closes the cursor (false for a cursor shared by
     * the participants of a Gather).
     */
    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch,
                           String tableName, boolean ownsCursor) {
        this.context = context;
        this.storage = storage;
        this.columns = columns;
        this.cursor = cursor;
        this.ownsCursor = ownsCursor;
        this.snapshot = cursor.snapshot();
        this.batch = batch;
        this.progressPhase = tableName == null ? null : "scan " + tableName;
        this.totalPages = storage.pageCount();
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
            int rows = storage.readPage(nextPage++, columns, batch, snapshot, null);
            if (rows > 0) {
                return batch;
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
