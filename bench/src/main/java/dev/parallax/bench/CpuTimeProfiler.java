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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * JMH profiler reporting CPU time per operation next to the score: {@code ·cpu.workers}, the
 * benchmark threads' own (JMH's {@code ...-jmh-worker-N} threads: the statement's path), and
 * {@code ·cpu.process}, the whole fork's (GC, JIT compilation and background threads included, so
 * give it warm-up enough to finish compiling). On a machine other
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
    private Map<Long, Long> workersBefore = Map.of();

    @Override
    public String getDescription() {
        return "CPU time of the benchmark JVM per operation (all threads)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        workersBefore = workerCpuTimes();
        cpuBefore = system.getProcessCpuTime();
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
        return List.of(new ScalarResult("·cpu.workers", (double) workers / operations, "ns/op", AggregationPolicy.AVG),
                new ScalarResult("·cpu.process", (double) cpu / operations, "ns/op", AggregationPolicy.AVG));
    }
}
