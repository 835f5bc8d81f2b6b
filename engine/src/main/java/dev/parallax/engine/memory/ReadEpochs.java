package dev.parallax.engine.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The database's read registrations for off-heap memory that readers reach without a lock (an RCU
 * domain): a reader registers ({@link #enter}) before it loads the address of a page or an index map
 * and ends its registration ({@link #exit}) once done with it; whoever unlinks such memory frees it
 * only after {@link #awaitReaders} (or a successful {@link #readersGone}), which returns once every
 * registration made before the call has ended. Registrations are short (one page read, one point
 * lookup), readers never wait, and the grace period waits only for them.
 *
 * <p>One domain per database, shared by every table's pages ({@code PagedTableStorage}) and every
 * unique index map ({@code ChronicleUniqueIndex}), so that a point lookup registers once for both
 * its index probe and its row read, and always on the same cache line. The counters are striped by
 * thread, each stripe and each epoch parity on a line of its own: two threads registering at once do
 * not pass a line between their cores. Per-storage counters (an {@code AtomicLongArray} per table
 * partition) were two dependent cache misses per point read on a table of 1024 partitions read at
 * random, and a line the two threads of the single table's benchmark passed between their cores on
 * every read.
 *
 * <p>Reader protocol: {@link #enter} increments its stripe's counter of the current epoch's parity
 * (a full fence) and confirms the epoch did not move meanwhile; {@link #awaitReaders} advances the
 * epoch twice, each time waiting for the previous parity's counters to drain. A reader that
 * registered before the first advance has ended when the second wait returns; one that registers
 * after an advance loads whatever the awaiting thread unlinked before it (the advance is a volatile
 * write after the unlink), so it cannot reach freed memory. Thread-safe.
 */
public final class ReadEpochs {
    /** Stripes of counters per parity; a power of two. Threads share a stripe by their id modulo this, which only costs contention. */
    private static final int STRIPES = 16;
    /** Longs between two counters: 128 bytes, so the adjacent-line prefetcher does not pair two stripes either. */
    private static final int SPACING = 16;
    private static final VarHandle COUNTER = MethodHandles.arrayElementVarHandle(long[].class);
    /** Spin-wait hints {@link #readersGone} gives a registration to end: a few microseconds. */
    private static final int BRIEF_WAIT_SPINS = 256;

    /** Counter of (parity, stripe) at index {@code (parity * STRIPES + stripe + 1) * SPACING}: the array's header line holds none. */
    private final long[] counters = new long[(2 * STRIPES + 2) * SPACING];
    private volatile int epoch;
    /** Serializes the epoch advances of {@link #awaitReaders} and {@link #readersGone}: two interleaved ones could check a parity twice and miss the other. */
    private final ReentrantLock advancing = new ReentrantLock();

    /**
     * Registers a read in the current epoch and returns the registration for {@link #exit}. Memory
     * the caller reaches from now on is not freed until it calls {@link #exit}. Any thread; must not
     * be called by a thread that then waits in {@link #awaitReaders} before exiting.
     */
    public int enter() {
        int stripe = (int) Thread.currentThread().threadId() & (STRIPES - 1);
        while (true) {
            int current = epoch;
            int slot = ((current & 1) * STRIPES + stripe + 1) * SPACING;
            COUNTER.getAndAdd(counters, slot, 1L);
            if (epoch == current) {
                return slot;
            }
            // The epoch moved between reading it and registering: register in the new one.
            COUNTER.getAndAdd(counters, slot, -1L);
        }
    }

    /** Ends the registration {@code registration} that {@link #enter} returned (on any thread, once). */
    public void exit(int registration) {
        COUNTER.getAndAdd(counters, registration, -1L);
    }

    /**
     * Returns once every registration made before the call has ended: memory that no reader can
     * reach any more (unlinked before the call) may then be freed. Waits only for reads (spinning,
     * then yielding); the caller must not hold a registration itself.
     */
    public void awaitReaders() {
        advancing.lock();
        try {
            for (int advance = 0; advance < 2; advance++) {
                int parity = advance();
                int spins = 0;
                while (registered(parity)) {
                    if (++spins < 100) {
                        Thread.onSpinWait();
                    } else {
                        Thread.yield();
                    }
                }
            }
        } finally {
            advancing.unlock();
        }
    }

    /**
     * {@link #awaitReaders} without waiting longer than a point lookup lasts: true when every
     * registration made before the call has ended (then memory unlinked before the call may be
     * freed), false when one is still in flight after a brief spin, or another thread is advancing
     * the epoch right now. The spin matters because the domain is the whole database's: a thread
     * running point queries on any table is registered most of the time, each time for about a
     * microsecond, so a single look would nearly always find someone.
     */
    public boolean readersGone() {
        if (!advancing.tryLock()) {
            return false;
        }
        try {
            for (int advance = 0; advance < 2; advance++) {
                int parity = advance();
                for (int spins = 0; registered(parity); spins++) {
                    if (spins == BRIEF_WAIT_SPINS) {
                        return false;
                    }
                    Thread.onSpinWait();
                }
            }
            return true;
        } finally {
            advancing.unlock();
        }
    }

    /** Advances the epoch; returns the parity it ended. The caller holds {@link #advancing}. */
    private int advance() {
        int ended = epoch & 1;
        epoch = epoch + 1;
        return ended;
    }

    /** Whether a registration of parity {@code parity} is still in flight. */
    private boolean registered(int parity) {
        for (int stripe = 0; stripe < STRIPES; stripe++) {
            if ((long) COUNTER.getVolatile(counters, (parity * STRIPES + stripe + 1) * SPACING) != 0) {
                return true;
            }
        }
        return false;
    }
}
