package dev.parallax.bench;

import java.io.File;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets the JVM's own background work finish at the end of an untimed set-up, so that it does not
 * run inside the measured invocation that follows: the garbage the set-up left (collected now
 * rather than by a collection that pauses the measured run) and the JIT compilations the set-up
 * queued.
 * <p>
 * Why: a benchmark that uses every core with its own participants (VacuumBenchmark with 2 workers
 * on 2 cores) shares them with whatever else the JVM runs, while the same benchmark with one
 * participant leaves a core free for it; the comparison then measures the compiler, not the
 * scaling. On the project's 2-core machine the JVM's other threads (the compiler threads above
 * all) used a median 13–15 ms of CPU inside each 16-table vacuum, up to 89 ms, even after 40
 * invocations. Only what the set-up left can be waited for: compilations the measured run itself
 * triggers (recompiling methods the set-up used differently) still happen inside it.
 */
final class BackgroundWork {
    /** The compiler threads must stay idle this long before the JIT counts as idle. */
    private static final long QUIET_NANOS = 100_000_000L;
    private static final long POLL_NANOS = 20_000_000L;
    /** Less CPU than this over a poll counts as idle (a thread that only wakes up to check its queue). */
    private static final long IDLE_CPU_NANOS = 500_000L;
    /** A set-up whose compilations never settle (tiered recompilation loops) gives up after this. */
    private static final long MAX_WAIT_NANOS = 5_000_000_000L;
    private static final File THREADS = new File("/proc/self/task");

    private BackgroundWork() {
    }

    /**
     * Collects garbage, then waits (at most 5 s) until the JIT compiler has been idle for 100 ms:
     * its threads used no CPU meanwhile (Linux), or elsewhere no compilation finished.
     */
    static void settle() {
        System.gc();
        long start = System.nanoTime();
        long last = compilerWork();
        if (last < 0) {
            return;
        }
        long quietSince = start;
        while (System.nanoTime() - quietSince < QUIET_NANOS && System.nanoTime() - start < MAX_WAIT_NANOS) {
            LockSupport.parkNanos(POLL_NANOS);
            long work = compilerWork();
            if (work - last > IDLE_CPU_NANOS) {
                quietSince = System.nanoTime();
            }
            last = work;
        }
    }

    /**
     * A measure that grows while the JIT compiles: the CPU nanoseconds of the compiler threads
     * where Linux shows them, else the total compilation time in nanoseconds; -1 when neither is
     * available. (The compilation time alone moves only when a compilation finishes, so a long
     * one in progress would look idle.)
     */
    private static long compilerWork() {
        File[] tasks = THREADS.listFiles();
        if (tasks != null) {
            long total = 0;
            boolean found = false;
            for (File task : tasks) {
                try {
                    String name = Files.readString(task.toPath().resolve("comm")).trim();
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        // schedstat: nanoseconds on the CPU, nanoseconds waiting for it, time slices.
                        String schedstat = Files.readString(task.toPath().resolve("schedstat")).trim();
                        total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                        found = true;
                    }
                } catch (IOException | RuntimeException gone) {
                    // The thread ended meanwhile (the JVM retires idle compiler threads): skip it.
                }
            }
            if (found) {
                return total;
            }
        }
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler == null || !compiler.isCompilationTimeMonitoringSupported() ? -1
                : compiler.getTotalCompilationTime() * 1_000_000L;
    }
}
