package dev.parallax.engine.index;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * One growth of a {@link ChronicleUniqueIndex} in progress: the larger map being created, then
 * filled segment by segment of the current map while every write to the current map is mirrored
 * into it, then swapped in. Its phases, in order: created (no map yet; {@link #claimCreation}
 * decides which thread creates it: the background task or a writer that cannot wait), installed
 * ({@link #target} set under the index's write lock, segments being copied), finished (swapped in
 * or abandoned). A creation that failed leaves {@link #failure} set and the migration in place, so
 * that writers do not retry at every insert; the index replaces it at its hard limit.
 *
 * @param <K> the index's key holder
 */
final class MapMigration<K> {
    /** Capacity of the map being grown: a migration begun for a map already replaced is stale. */
    final long fromCapacity;
    /** Capacity ({@code entries}) of the larger map. */
    final long entries;
    /** Keys in the index when the migration began: where the copy pace starts counting. */
    final long startCount;
    /** Keys at which every segment should be copied; past it writers copy as they insert. */
    final long deadlineCount;
    private static final int NOBODY = 0;
    private static final int BACKGROUND = 1;
    private static final int CALLER = 2;
    /** Who creates the larger map: {@link #NOBODY} yet, the {@link #BACKGROUND} task, or a {@link #CALLER} (a writer, or close). */
    private final AtomicInteger creator = new AtomicInteger(NOBODY);
    /** Counted down once creation ended: installed, failed or discarded because the index closed. */
    private final CountDownLatch created = new CountDownLatch(1);
    /** Counted down once the larger map replaced the current one, or the growth failed or was dropped. */
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Counted down when the background task ended. */
    private final CountDownLatch backgroundEnded = new CountDownLatch(1);
    /** The next segment of the current map to copy, claimed by whoever copies it. */
    final AtomicInteger claimedSegments = new AtomicInteger();
    /** Segments copied; whoever copies the last one swaps the maps. */
    final AtomicInteger copiedSegments = new AtomicInteger();
    /** The larger map, its reservation and the current map's segment count: set by {@link #install}, read after {@link #isInstalled}. */
    ChronicleMap<K, LongCell> target;
    long targetReservation;
    int segments;
    /**
     * Per segment of the current map, 1 once its copy is about to take the segment's lock; writers
     * read it holding that lock.
     */
    private AtomicIntegerArray copied;
    private volatile boolean installed;
    volatile RuntimeException failure;

    MapMigration(long fromCapacity, long entries, long startCount, long deadlineCount) {
        this.fromCapacity = fromCapacity;
        this.entries = entries;
        this.startCount = startCount;
        this.deadlineCount = deadlineCount;
    }

    /**
     * Whether the calling thread is the one to create the larger map (exactly one caller gets true);
     * {@code background} says whether it is the growth thread. Close claims it too, so that a
     * background task that has not started yet never allocates.
     */
    boolean claimCreation(boolean background) {
        return creator.compareAndSet(NOBODY, background ? BACKGROUND : CALLER);
    }

    /** Whether the growth thread claimed the creation: then it may hold memory until its task ends. */
    boolean createdInBackground() {
        return creator.get() == BACKGROUND;
    }

    /** Called under the index's write lock: the larger map exists and the copy may begin. */
    void install(ChronicleMap<K, LongCell> map, long reservation, int currentSegments) {
        target = map;
        targetReservation = reservation;
        segments = currentSegments;
        copied = new AtomicIntegerArray(currentSegments);
        installed = true;
    }

    /**
     * Whether {@code segment} of the current map is copied or being copied: a write to a segment
     * not marked yet need not be repeated, its copy comes later and carries it. Call holding the
     * segment's lock.
     */
    boolean isCopied(int segment) {
        return copied.get(segment) != 0;
    }

    /** Marks {@code segment} copied; call right before the copy takes the segment's lock. */
    void markCopied(int segment) {
        copied.set(segment, 1);
    }

    boolean isInstalled() {
        return installed;
    }

    void backgroundEnded() {
        backgroundEnded.countDown();
    }

    void awaitBackground() {
        awaitUninterruptibly(backgroundEnded);
    }

    void creationEnded() {
        created.countDown();
    }

    void finish() {
        finished.countDown();
    }

    /** Waits until creation ended; returns at once when nobody claimed it yet. */
    void awaitCreation() {
        if (creator.get() != NOBODY) {
            awaitUninterruptibly(created);
        }
    }

    void awaitFinished() {
        awaitUninterruptibly(finished);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException interruption) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
