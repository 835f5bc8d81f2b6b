package dev.parallax.engine.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The snapshots open on one table partition, and the limits they set on VACUUM: PostgreSQL's xmin
 * horizon per table. A snapshot is taken and registered in one step under this registry's monitor,
 * and VACUUM decides and compacts each page under the same monitor
 * ({@link PagedTableStorage#compactPage}), so a scan opening meanwhile waits for one page's
 * compaction at most and then either is counted in the decision or sees the compacted page.
 * <p>
 * Registering and releasing cost one monitor each per scan, never per page or row.
 */
final class SnapshotRegistry {
    private final List<OpenSnapshot> open = new ArrayList<>();
    /** VACUUM FULL waits for the open snapshots to close: new ones wait too (one round at most). */
    private boolean exclusivePending;

    /**
     * Takes a snapshot with {@code taker} and registers it, as one step against VACUUM. Waits while
     * VACUUM FULL waits for the open snapshots (a round of a few milliseconds) or rewrites the table.
     */
    synchronized OpenSnapshot register(SnapshotUse use, Supplier<ScanSnapshot> taker) {
        boolean interrupted = false;
        while (exclusivePending) {
            try {
                wait();
            } catch (InterruptedException interruption) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        OpenSnapshot snapshot = new OpenSnapshot(taker.get(), use, this);
        open.add(snapshot);
        return snapshot;
    }

    synchronized void release(OpenSnapshot snapshot) {
        for (int index = open.size() - 1; index >= 0; index--) {
            if (open.get(index) == snapshot) {
                open.remove(index);
                if (open.isEmpty()) {
                    notifyAll(); // VACUUM FULL may be waiting for the last one
                }
                return;
            }
        }
    }

    /**
     * Waits up to {@code waitMillis} until no snapshot is open; true when none is (the caller then
     * keeps holding this monitor for as long as no new one may open). The caller holds the monitor;
     * it is released while waiting. Meanwhile new snapshots wait, as requests queue behind
     * PostgreSQL's ACCESS EXCLUSIVE lock, so a stream of short scans cannot starve VACUUM FULL; but
     * only for this one round, so a statement that holds a snapshot and opens another scan of the
     * table is delayed, never deadlocked. An interrupt ends the wait early (false) and stays set.
     */
    synchronized boolean awaitNoneOpen(long waitMillis) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(waitMillis);
        exclusivePending = true;
        try {
            while (!open.isEmpty()) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                try {
                    java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, remaining);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        } finally {
            // Waiting registrations wake; they get the monitor once the caller's rewrite is done.
            exclusivePending = false;
            notifyAll();
        }
    }

    /** Snapshots open now. */
    synchronized int openCount() {
        return open.size();
    }

    /**
     * The change sequence at or below which a dead row is invisible to every open snapshot and to
     * every snapshot taken later: the oldest open snapshot's sequence, or {@code currentSequence}
     * when none is open. The caller holds this monitor, so no snapshot registers meanwhile.
     */
    synchronized long removableUpTo(long currentSequence) {
        long horizon = currentSequence;
        for (int index = 0; index < open.size(); index++) {
            horizon = Math.min(horizon, open.get(index).snapshot().sequence());
        }
        return horizon;
    }

    /** False when an open snapshot forbids renumbering the slots of page {@code pageIndex} (see {@link SnapshotUse}). */
    synchronized boolean mayRenumber(int pageIndex) {
        for (int index = 0; index < open.size(); index++) {
            OpenSnapshot snapshot = open.get(index);
            if (snapshot.use() == SnapshotUse.ROW_IDS || pageIndex == snapshot.snapshot().pageCount() - 1) {
                return false;
            }
        }
        return true;
    }

    /** The fewest pages the table may be shortened to: the largest page count an open snapshot covers. */
    synchronized int pageCountFloor() {
        int floor = 0;
        for (int index = 0; index < open.size(); index++) {
            floor = Math.max(floor, open.get(index).snapshot().pageCount());
        }
        return floor;
    }
}
