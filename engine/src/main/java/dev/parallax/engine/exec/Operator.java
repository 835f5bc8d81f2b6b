package dev.parallax.engine.exec;

import dev.parallax.engine.vector.Batch;

/**
 * A running instance of a plan node. Pull-based: the consumer calls {@link #next()} until it
 * returns null. One thread uses an operator at a time (under a Gather, each participant has its
 * own instance; instances share state only through explicit global state objects).
 */
public interface Operator extends AutoCloseable {
    /**
     * The next batch with at least one live row, or null when the input is exhausted. The batch
     * belongs to the operator and is valid until the next call. Checks for cancellation between batches.
     */
    Batch next();

    /** Releases resources (memory, temp files, worker tasks); called once, also after a failure. */
    @Override
    void close();
}
