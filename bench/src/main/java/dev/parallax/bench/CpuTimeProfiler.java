package dev.parallax.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * JMH profiler reporting CPU time per operation next to the score: {@code ·cpu.workers}, the
 * benchmark threads' own (JMH's {@code ...-jmh-worker-N} threads: the statement's path), and
 * {@code ·cpu.process}, the whole fork's (GC, JIT compilation and background threads included, so
 * give it warm-up enough to finish compiling), and on Linux {@code ·cpu.system}, the part of that the
 * kernel spent for the fork (page faults and the zeroing of fresh memory, huge page collapses,
 * spill file I/O; from {@code /proc/self/stat}, 10 ms ticks). On a machine other
 * people load, throughput follows the share of the CPU the fork gets; CPU time per operation moves
 * far less, so two builds can be compared there (it still grows somewhat with cache and memory
 * contention: compare builds run at the same time). Use with {@code -prof dev.parallax.bench.CpuTimeProfiler},
 * e.g. {@code bench/run PointSelectBenchmark.pointSelect1Thread -p rows=10000000 -prof dev.parallax.bench.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean system =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long cpuBefore;
    private long systemBefore;
    private Map<Long, Long> workersBefore = Map.of();

    @Override
    public String getDescription() {
        return "CPU time of the benchmark JVM per operation (all threads)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        workersBefore = workerCpuTimes();
        cpuBefore = system.getProcessCpuTime();
        systemBefore = kernelTime();
    }

    /** The process's kernel CPU time in ns ({@code stime} of {@code /proc/self/stat}), or -1 where unavailable. */
    private static long kernelTime() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name (which may hold spaces), from field 3 (state) on: stime is field 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[15 - 3]) * 10_000_000L;
        } catch (IOException | RuntimeException unavailable) {
            return -1;
        }
    }

    /** CPU time by thread id of JMH's benchmark threads alive now. */
    private Map<Long, Long> workerCpuTimes() {
        Map<Long, Long> times = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("jmh-worker")) {
                long time = threads.getThreadCpuTime(info.getThreadId());
                if (time >= 0) {
                    times.put(info.getThreadId(), time);
                }
            }
        }
        return times;
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = system.getProcessCpuTime() - cpuBefore;
        long kernelAfter = kernelTime();
        long kernel = systemBefore < 0 || kernelAfter < 0 ? -1 : kernelAfter - systemBefore;
        long workers = 0;
        for (Map.Entry<Long, Long> after : workerCpuTimes().entrySet()) {
            // A worker started during the iteration counts from zero.
            workers += after.getValue() - workersBefore.getOrDefault(after.getKey(), 0L);
        }
        // All operations of the iteration, ramp-up and ramp-down included, as the CPU time is.
        long operations = result.getMetadata() == null ? 0 : result.getMetadata().getAllOps();
        if (operations <= 0 || cpu < 0) {
            return List.of();
        }
        ScalarResult workersResult = new ScalarResult("·cpu.workers", (double) workers / operations, "ns/op", AggregationPolicy.AVG);
        ScalarResult processResult = new ScalarResult("·cpu.process", (double) cpu / operations, "ns/op", AggregationPolicy.AVG);
        if (kernel < 0) {
            return List.of(workersResult, processResult);
        }
        return List.of(workersResult, processResult,
                new ScalarResult("·cpu.system", (double) kernel / operations, "ns/op", AggregationPolicy.AVG));
    }
}
