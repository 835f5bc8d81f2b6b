package dev.parallax.engine.sort;

import dev.parallax.engine.vector.Batch;

/**
 * A stream of rows in sort order, in batches. Used by one thread at a time.
 */
public interface SortedOutput extends AutoCloseable {
    /**
     * The next rows in order, or null when all rows were returned. The batch (which may carry a
     * selection) stays valid only until the next call of {@code next} or {@link #close}.
     */
    Batch next();

    /** Releases what the stream holds (buffers, temporary files); idempotent, and allowed before the end. */
    @Override
    void close();
}
