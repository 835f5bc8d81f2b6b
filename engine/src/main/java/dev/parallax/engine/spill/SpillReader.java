package dev.parallax.engine.spill;

import dev.parallax.engine.vector.Batch;

/** Rows read back from a spill file, a block at a time. Used by one thread. */
public interface SpillReader extends AutoCloseable {
    /** The next block of rows (at least one, no selection), or null after the last; valid until the next call. */
    Batch next();

    /** Closes the file (it stays on disk); idempotent. */
    @Override
    void close();
}
