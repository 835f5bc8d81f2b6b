package dev.parallax.engine.memory;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one background thread of the JVM that moves settled table slabs onto huge pages
 * ({@link NativeBlock#preferHugePages()}): a collapse copies the memory, 2–4 ms per 2 MiB, which no
 * statement should wait for. (Unique indexes' maps are advised when their background growth
 * creates them, off the writers' path: ChronicleUniqueIndex.) Daemon, lowest priority, started on
 * first use and gone after half a minute idle.
 */
public final class HugePageThread {
    private static final long IDLE_SECONDS = 30;
    private static final long POLL_MILLIS = 10;

    private HugePageThread() {
    }

    /** The executor running collapses one after the other, in submission order. */
    public static Executor executor() {
        return Holder.EXECUTOR;
    }

    /**
     * Waits until every collapse queued so far has run, at most {@code timeout}; returns whether
     * none is left. For benchmarks that measure a database after its memory settled, as a
     * long-running one would be, and tests.
     */
    public static boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (Holder.PENDING.get() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    private static final class Holder {
        /** Collapses queued and not yet finished. */
        static final AtomicInteger PENDING = new AtomicInteger();
        static final Executor EXECUTOR = create();

        private static Executor create() {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                Thread thread = new Thread(task, "parallax-huge-pages");
                thread.setDaemon(true);
                thread.setPriority(Thread.MIN_PRIORITY);
                return thread;
            });
            pool.allowCoreThreadTimeOut(true);
            return task -> {
                PENDING.incrementAndGet();
                try {
                    pool.execute(() -> {
                        try {
                            task.run();
                        } finally {
                            PENDING.decrementAndGet();
                        }
                    });
                } catch (RuntimeException rejected) {
                    PENDING.decrementAndGet();
                    throw rejected;
                }
            };
        }
    }
}
