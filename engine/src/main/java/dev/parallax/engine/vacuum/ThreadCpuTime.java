package dev.parallax.engine.vacuum;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * The calling thread's CPU time so far, user and system (kernel) apart, for VACUUM VERBOSE's
 * "system usage: CPU: user: ..., system: ..." line. Read every time a participant starts or
 * finishes a table, so inside the measured run of a parallel VACUUM.
 * <p>
 * On Linux one {@code getrusage(RUSAGE_THREAD)} call gives both. Why not the JDK's
 * ThreadMXBean: its {@code getCurrentThreadUserTime} reads and parses
 * {@code /proc/self/task/<tid>/stat} on Linux, 27–85 µs a call on this project's 2-core VM (against
 * 0.7 µs for {@code getCurrentThreadCpuTime}, a clock read), and VACUUM took three per table and
 * two per helped table. Elsewhere, or without native access, the ThreadMXBean it is.
 *
 * @param userNanos   CPU time in user mode
 * @param systemNanos CPU time in the kernel on the thread's behalf (page faults, zeroing fresh memory)
 */
record ThreadCpuTime(long userNanos, long systemNanos) {
    private static final ThreadCpuTime ZERO = new ThreadCpuTime(0, 0);
    /** Linux's {@code RUSAGE_THREAD}. */
    private static final int RUSAGE_THREAD = 1;
    /** {@code struct rusage} on 64-bit Linux: {@code ru_utime} and {@code ru_stime} (timevals of two longs) and 14 longs. */
    private static final long RUSAGE_BYTES = 144;
    private static final long SYSTEM_TIME_OFFSET = 16;
    /**
     * Looked up once: ManagementFactory.getThreadMXBean() takes a JDK-wide monitor on every call,
     * where JFR saw parallel VACUUM participants wait up to 10 ms at the start of a table.
     */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final MethodHandle GETRUSAGE = getrusage();

    /** The calling thread's CPU time so far (zeros where the platform measures none). */
    static ThreadCpuTime now() {
        if (GETRUSAGE != null) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment usage = arena.allocate(RUSAGE_BYTES, 8);
                if ((int) GETRUSAGE.invokeExact(RUSAGE_THREAD, usage) == 0) {
                    return new ThreadCpuTime(microseconds(usage, 0), microseconds(usage, SYSTEM_TIME_OFFSET));
                }
            } catch (Throwable unexpected) {
                // Treated as unavailable for this call: fall back to the ThreadMXBean below.
            }
        }
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            return ZERO;
        }
        long total = Math.max(0, THREADS.getCurrentThreadCpuTime());
        long user = Math.max(0, THREADS.getCurrentThreadUserTime());
        return new ThreadCpuTime(user, Math.max(0, total - user));
    }

    /** The time spent between {@code start} (taken earlier on the same thread) and this. */
    ThreadCpuTime since(ThreadCpuTime start) {
        return new ThreadCpuTime(Math.max(0, userNanos - start.userNanos), Math.max(0, systemNanos - start.systemNanos));
    }

    /** A timeval's seconds and microseconds at {@code offset}, in nanoseconds. */
    private static long microseconds(MemorySegment usage, long offset) {
        return usage.get(ValueLayout.JAVA_LONG, offset) * 1_000_000_000L + usage.get(ValueLayout.JAVA_LONG, offset + 8) * 1_000L;
    }

    private static MethodHandle getrusage() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("getrusage")
                    .map(symbol -> linker.downcallHandle(symbol,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException | Error unavailable) {
            // No native access: the ThreadMXBean.
            return null;
        }
    }
}
