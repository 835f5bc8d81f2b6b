package dev.parallax.engine.exec;

/**
 * How far a running statement has got: what it is doing (e.g. "dbgen", "COPY", a scan's table),
 * units done of an expected total, and when it started. Long-running work updates it; any thread
 * (a shell's progress bar, a monitoring view) may read a {@link #snapshot()} at any time.
 */
public final class StatementProgress {
    private final long startNanos = System.nanoTime();
    private volatile Snapshot current = new Snapshot("", 0, 0, "", 0);

    /** One consistent reading: {@code total} 0 means not known yet. */
    public record Snapshot(String phase, long done, long total, String unit, long elapsedNanos) {
        /** Fraction done in [0, 1], or -1 when the total is unknown. */
        public double fraction() {
            return total <= 0 ? -1 : Math.min(1.0, (double) done / total);
        }
    }

    /** Records progress; called by the thread(s) doing the work, cheap enough to call per batch. */
    public void update(String phase, long done, long total, String unit) {
        current = new Snapshot(phase, done, total, unit, 0);
    }

    public Snapshot snapshot() {
        Snapshot state = current;
        return new Snapshot(state.phase(), state.done(), state.total(), state.unit(), System.nanoTime() - startNanos);
    }
}
