package dev.parallax.bench;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.NativeBlock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The ceiling {@link VacuumBenchmark}'s speedup can reach on a machine: a plain copy of the same
 * volume, page to page, by 1 or 2 participants handing out pages from a shared counter as VACUUM
 * does (the caller plus workers of a fork/join pool). {@code pages} pages of 128 KiB (VacuumBenchmark's
 * 16 tables hold about 9,232 after their dead rows are made), {@code copyBytes} of each copied to
 * another region, both regions taken from the {@link MemoryManager} on huge pages as table slabs
 * are, and touched before the first run.
 * <p>
 * What it shows: the work streams from and to memory with no lock and no shared cache line, so the
 * 2-participant time over the 1-participant time is what the machine's memory system allows a
 * streaming task. VACUUM's compaction moves fewer bytes per unit of CPU time and, since it writes
 * over pages still in its cache, fetches fewer lines before storing: it scales better than this
 * copy (1.58x against 1.28x/1.34x in the quiet run of docs/BENCHMARKS.md). On the project's 2-core KVM machine, measured with both participants
 * scheduled together, 2 participants took 16% more CPU time than 1 for the same copy (1.72x by
 * wall time), while the same copy kept within each core's L2 cache scaled 1.92x with 1% more CPU.
 * <p>
 * {@code target}: {@code fresh} copies into another region (pages not in any cache: each store
 * first fetches its line from memory); {@code recycled} copies each page over the page the same
 * participant copied from just before, still in its cache, as VACUUM's participants write each
 * compacted copy over the page their previous compaction replaced
 * ({@code PagedTableStorage.recycleRetiredPages}): the ceiling for that scheme.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 15, batchSize = 1)
@Fork(value = 1, jvmArgsPrepend = {HEAP, NATIVE_ACCESS})
public class MemoryCopyCeilingBenchmark {
    private static final int PAGE_BYTES = 128 * 1024;

    @Param({"1", "2"})
    public int participants;

    @Param({"9232"})
    public int pages;

    /** Bytes copied per page: a compaction keeps about three quarters of a page's rows. */
    @Param({"98304"})
    public int copyBytes;

    /** Where each page's bytes go: {@code fresh} or {@code recycled} (see the class comment). */
    @Param({"fresh", "recycled"})
    public String target;

    private MemoryManager memory;
    private NativeBlock sourceBlock;
    private NativeBlock targetBlock;
    private MemorySegment source;
    private MemorySegment targetRegion;
    private ForkJoinPool workers;

    @Setup(Level.Trial)
    public void allocate() {
        long bytes = (long) PAGE_BYTES * pages;
        memory = new MemoryManager(2 * bytes + (1L << 30));
        sourceBlock = memory.allocate(MemoryTag.PAGES, bytes);
        targetBlock = memory.allocate(MemoryTag.PAGES, bytes);
        source = sourceBlock.segment();
        targetRegion = targetBlock.segment();
        // Fault every page in before the first run, as a table's pages and reused slabs are.
        source.fill((byte) 1);
        targetRegion.fill((byte) 2);
        workers = new ForkJoinPool(Math.max(1, participants - 1));
    }

    @Benchmark
    public int copy() {
        AtomicInteger next = new AtomicInteger();
        List<CompletableFuture<Integer>> started = new ArrayList<>(participants - 1);
        for (int worker = 1; worker < participants; worker++) {
            started.add(CompletableFuture.supplyAsync(() -> copyPages(next), workers));
        }
        int copied = copyPages(next);
        for (CompletableFuture<Integer> worker : started) {
            copied += worker.join();
        }
        if (copied != pages) {
            throw new IllegalStateException("copied " + copied + " pages of " + pages);
        }
        return copied;
    }

    private int copyPages(AtomicInteger next) {
        boolean recycled = target.equals("recycled");
        int copied = 0;
        // recycled: the source page this participant copied before (its bytes are not read again).
        long previous = -1;
        for (int page = next.getAndIncrement(); page < pages; page = next.getAndIncrement()) {
            long offset = (long) page * PAGE_BYTES;
            if (recycled && previous >= 0) {
                MemorySegment.copy(source, offset, source, previous, copyBytes);
            } else {
                MemorySegment.copy(source, offset, targetRegion, offset, copyBytes);
            }
            previous = offset;
            copied++;
        }
        return copied;
    }

    @TearDown(Level.Trial)
    public void free() {
        workers.shutdown();
        sourceBlock.close();
        targetBlock.close();
    }
}
