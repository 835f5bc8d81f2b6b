package dev.parallax.bench;

/** JVM flags every benchmark fork needs (PLATFORM.md); referenced from @Fork(jvmArgsPrepend). */
public final class BenchmarkFlags {
    private BenchmarkFlags() {
    }

    public static final String ADD_OPENS_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    public static final String ADD_OPENS_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    public static final String ADD_OPENS_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    public static final String ADD_OPENS_UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    public static final String ADD_EXPORTS_NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String ADD_EXPORTS_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    public static final String ADD_EXPORTS_MISC = "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED";
    public static final String ADD_EXPORTS_JAVAC = "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    public static final String UNSAFE_ALLOW = "--sun-misc-unsafe-memory-access=allow";
    public static final String NO_ANALYTICS = "-Dchronicle.analytics.disable=true";
    public static final String HEAP = "-Xmx10g";
    /**
     * The heap's floor at its ceiling, for benchmarks that use every core with their own threads
     * (VacuumBenchmark with 2 workers): a heap that may shrink is uncommitted after a collection by
     * G1's service thread, which then took 10–20 ms of CPU inside 125 ms runs (per-thread schedstat
     * of VacuumBenchmark's set-up run in a harness), time the 1-worker run had a free core for; with
     * the floor it did not run at all. VacuumBenchmark on this project's 2-core VM, same hour: 1.69x,
     * 1.72x, 1.88x without (56 iterations pooled: 1.73x), 1.90x, 1.81x with (32 pooled: 1.88x).
     */
    public static final String FIXED_HEAP = "-Xms10g";
}
