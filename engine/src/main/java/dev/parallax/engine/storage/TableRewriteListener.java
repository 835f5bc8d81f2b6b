package dev.parallax.engine.storage;

import dev.parallax.engine.vector.Batch;

/**
 * Told by {@link PagedTableStorage#rewriteCompactly} where every row went (and by
 * {@link PagedTableStorage#truncate} that every row went away), so that index entries can follow,
 * before the rewritten pages are published. Both methods are called under the
 * storage's write lock, once all new pages are written (so nothing can fail after them but the
 * listener itself); the batches hold every table column and are valid for the call only.
 */
public interface TableRewriteListener {
    /** The live rows at positions {@code 0..count} of {@code rows} moved from {@code fromRowIds[i]} to {@code toRowIds[i]}. */
    void rowsMoved(Batch rows, long[] fromRowIds, long[] toRowIds, int count);

    /** The rows at positions {@code 0..count} of {@code rows}, at {@code rowIds[i]}, went away (dead ones; every one on TRUNCATE). */
    void rowsRemoved(Batch rows, long[] rowIds, int count);
}
