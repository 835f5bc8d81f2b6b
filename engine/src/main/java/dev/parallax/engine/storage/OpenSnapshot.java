package dev.parallax.engine.storage;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A snapshot registered with the storage it reads for as long as its reader runs: PostgreSQL's
 * registered snapshot, whose xmin holds back VACUUM's horizon. Until {@link #close()}, VACUUM keeps
 * every row the snapshot can see and moves no row the reader could still address (see
 * {@link SnapshotUse}). Obtained from {@link TableStorage#openSnapshot}; the owner closes it exactly
 * when the reader ends (in a finally block, so failures and cancels release it too). Thread-safe:
 * closing twice, or from another thread than opened it, is harmless.
 */
public final class OpenSnapshot implements AutoCloseable {
    private final ScanSnapshot snapshot;
    private final SnapshotUse use;
    private final SnapshotRegistry registry;
    private final AtomicBoolean closed = new AtomicBoolean();

    OpenSnapshot(ScanSnapshot snapshot, SnapshotUse use, SnapshotRegistry registry) {
        this.snapshot = snapshot;
        this.use = use;
        this.registry = registry;
    }

    /** A snapshot that nothing needs to hold back (storage without row versions): closing it does nothing. */
    public static OpenSnapshot unregistered(ScanSnapshot snapshot) {
        return new OpenSnapshot(snapshot, SnapshotUse.SCAN, null);
    }

    /** What the reader may see; null for storage without versions (every row visible). */
    public ScanSnapshot snapshot() {
        return snapshot;
    }

    public SnapshotUse use() {
        return use;
    }

    /** True until {@link #close()}. */
    public boolean isOpen() {
        return !closed.get();
    }

    /** Releases the snapshot: VACUUM may reclaim what only this reader could see. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && registry != null) {
            registry.release(this);
        }
    }
}
