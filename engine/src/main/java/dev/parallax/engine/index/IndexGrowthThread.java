package dev.parallax.engine.index;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one background thread that grows unique indexes ({@link MapMigration}): creating a map of
 * tens of millions of entries takes about half a second and copying its keys seconds, which no
 * writer should wait for. One thread for the whole JVM, daemon, started on the first growth and
 * gone after a minute without work; growths of several indexes queue (writers copy themselves
 * when the queue makes them late, see {@link ChronicleUniqueIndex}).
 */
final class IndexGrowthThread {
    private static final ThreadPoolExecutor EXECUTOR;

    static {
        EXECUTOR = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "parallax-index-growth");
            thread.setDaemon(true);
            return thread;
        });
        EXECUTOR.allowCoreThreadTimeOut(true);
    }

    private IndexGrowthThread() {
    }

    /** Runs {@code task} on the growth thread, after the growths queued before it. */
    static void submit(Runnable task) {
        EXECUTOR.execute(task);
    }
}
