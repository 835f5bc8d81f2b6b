package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;

/**
 * Reads a table page by page. Serial and parallel scans differ only in their cursor: a serial
 * scan owns one, the participants of a Parallel Seq Scan share their Gather's, so each claims
 * chunks of pages that no other participant reads (local state: the chunk being read).
 */
public final class SeqScanOperator implements Operator {
    private final ExecutionContext context;
    private final TableStorage storage;
    private final int[] columns;
    private final ScanCursor cursor;
    private final Batch batch;
    private int nextPage;
    private int chunkEnd;

    public SeqScanOperator(ExecutionContext context, TableStorage storage, int[] columns, ScanCursor cursor, Batch batch) {
        this.context = context;
        this.storage = storage;
        this.columns = columns;
        this.cursor = cursor;
        this.batch = batch;
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
                continue;
            }
            int rows = storage.readPage(nextPage++, columns, batch);
            if (rows > 0) {
                return batch;
            }
        }
    }

    @Override
    public void close() {
        // Pages belong to the table; the batch is on-heap.
    }
}
