package dev.parallax.engine.tpch;

/**
 * Told how a TPC-H load advances, e.g. to draw a progress line on stderr. Called from generator
 * threads, possibly concurrently for different tables; implementations must be thread-safe and quick.
 */
@FunctionalInterface
public interface TpchProgressListener {
    /** Called by none: the listener for callers that do not want progress. */
    TpchProgressListener NONE = (table, rowsDone, rowsExpected) -> { };

    /**
     * {@code rowsDone} rows of {@code table} are now in the table, out of about {@code rowsExpected}
     * (exact for every table but lineitem, whose size is known only once generated). Called after
     * each appended batch and once more with the final count when the table is complete.
     */
    void progress(String table, long rowsDone, long rowsExpected);
}
