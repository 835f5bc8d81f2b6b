package dev.parallax.engine.memory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadEpochsTest {
    @Test
    void awaitReadersWaitsForARegistrationMadeBeforeIt() throws Exception {
        ReadEpochs epochs = new ReadEpochs();
        int registration = epochs.enter();
        CountDownLatch returned = new CountDownLatch(1);
        Thread awaiting = new Thread(() -> {
            epochs.awaitReaders();
            returned.countDown();
        });
        awaiting.start();
        awaiting.join(200);
        assertTrue(awaiting.isAlive(), "awaitReaders returned while a registration was in flight");
        epochs.exit(registration);
        awaiting.join();
        assertEquals(0, returned.getCount());
    }

    @Test
    void readersGoneOnlyOnceEveryEarlierRegistrationEnded() throws Exception {
        ReadEpochs epochs = new ReadEpochs();
        assertTrue(epochs.readersGone());
        int first = epochs.enter();
        // Registered on another thread (another stripe, or the same one: either way it counts) and ended on this one.
        AtomicReference<Integer> second = new AtomicReference<>();
        Thread other = new Thread(() -> second.set(epochs.enter()));
        other.start();
        other.join();
        assertFalse(epochs.readersGone());
        epochs.exit(first);
        assertFalse(epochs.readersGone());
        epochs.exit(second.get());
        assertTrue(epochs.readersGone());
        epochs.awaitReaders();
    }

    /**
     * The grace period's whole point, with more threads than stripes (threads share counters): a
     * writer keeps replacing a published object and marks the old one freed after awaitReaders;
     * readers registered while they use the object they loaded must never see it freed.
     */
    @Test
    void noReaderSeesAnObjectFreedAfterItsGracePeriod() throws Exception {
        ReadEpochs epochs = new ReadEpochs();
        AtomicReference<Published> current = new AtomicReference<>(new Published());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        for (int reader = 0; reader < 18; reader++) {
            Thread thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        int registration = epochs.enter();
                        try {
                            Published seen = current.get();
                            for (int look = 0; look < 20; look++) {
                                if (seen.freed) {
                                    throw new AssertionError("read an object freed after its grace period");
                                }
                                Thread.onSpinWait();
                            }
                        } finally {
                            epochs.exit(registration);
                        }
                        reads.incrementAndGet();
                    }
                } catch (Throwable thrown) {
                    failure.compareAndSet(null, thrown);
                }
            });
            thread.start();
            readers.add(thread);
        }
        for (int swap = 0; swap < 200; swap++) {
            Published old = current.getAndSet(new Published());
            if ((swap & 1) == 0) {
                epochs.awaitReaders();
                old.freed = true;
            } else if (epochs.readersGone()) {
                old.freed = true;
            }
        }
        stop.set(true);
        for (Thread thread : readers) {
            thread.join();
        }
        assertNull(failure.get());
        assertTrue(reads.get() > 0);
        assertTrue(epochs.readersGone());
    }

    private static final class Published {
        volatile boolean freed;
    }
}
