package dev.parallax.engine.catalog;

import java.util.concurrent.locks.StampedLock;

/**
 * Keeps a table's row ids stable while someone holds them. Plain VACUUM renumbers the slots of the
 * pages it compacts (one page at a time); a statement that learns row ids and uses them later
 * (UPDATE and DELETE find rows and then mark them, an upsert looks a key up and then changes the
 * row) pins the row ids for that span with {@link #pin()}, and VACUUM waits for pins before it
 * compacts the next page ({@link #lockForCompaction()}). Scans that only read rows need no pin:
 * a page is read in one piece, before or after its compaction.
 * <p>
 * A StampedLock, so a pin may be released by another thread than took it (a worker may pin, the
 * leader unpin). Not reentrant: a thread holding a pin must not take another on the same table
 * while VACUUM may be waiting.
 */
public final class RowIdLock {
    private final StampedLock lock = new StampedLock();

    /** Pins the row ids (blocks while VACUUM compacts a page of this table); pass the stamp to {@link #unpin}. */
    public long pin() {
        return lock.readLock();
    }

    /** Releases a pin taken with {@link #pin}. */
    public void unpin(long stamp) {
        lock.unlockRead(stamp);
    }

    /** VACUUM: waits for the pins to go, then keeps new ones out until {@link #unlockAfterCompaction}. */
    public long lockForCompaction() {
        return lock.writeLock();
    }

    /**
     * As {@link #lockForCompaction}, giving up after {@code timeoutMillis}: returns the stamp, or 0
     * when pins were still held (or the thread was interrupted; the interrupt stays set). VACUUM FULL
     * uses it so that it never holds the row ids while waiting for scans that a pinned statement runs.
     */
    public long tryLockForCompaction(long timeoutMillis) {
        try {
            return lock.tryWriteLock(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    public void unlockAfterCompaction(long stamp) {
        lock.unlockWrite(stamp);
    }
}
