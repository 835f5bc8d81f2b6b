package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.type.DataType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The longest single insert of a long-key index while it grows, as the upsert benchmark grows it
 * (not a test: run by hand with the parallax JVM flags, arguments {@code [loaded keys] [random
 * inserts]}, defaults 10,000,000 and 8,000,000). Loads keys 1..loaded from an index of the default
 * size, then inserts keys random in 1..1e9 one at a time, printing per window of inserts the
 * thread's CPU ns per insert and the longest insert (wall clock, and the thread's own CPU time:
 * on a loaded machine the wall clock also counts time off the CPU), and at the end the longest
 * insert of all. A growth that blocks shows as one insert of seconds; an incremental one as a
 * window of dearer inserts.
 */
public final class UniqueIndexGrowthStall {
    private static final int WINDOW = 500_000;

    private UniqueIndexGrowthStall() {
    }

    public static void main(String[] arguments) {
        int loaded = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 10_000_000;
        int inserts = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 8_000_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryManager memory = new MemoryManager(16L << 30);
        try (UniqueIndex created = UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.INTEGER)), memory)) {
            LongKeyIndex index = (LongKeyIndex) created;
            long loadStart = System.nanoTime();
            long longestLoad = 0;
            for (long key = 1; key <= loaded; key++) {
                long start = System.nanoTime();
                index.putIfAbsent(key, key);
                longestLoad = Math.max(longestLoad, System.nanoTime() - start);
            }
            System.out.printf("loaded %,d keys in %.1f s, longest insert %.1f ms, %,d bytes INDEXES%n",
                    loaded, (System.nanoTime() - loadStart) / 1e9, longestLoad / 1e6, memory.allocatedBytes(MemoryTag.INDEXES));
            SplittableRandom random = new SplittableRandom(42);
            long longestAll = 0;
            long longestCpuAll = 0;
            long totalCpu = 0;
            for (int done = 0; done < inserts; done += WINDOW) {
                long longest = 0;
                long longestCpu = 0;
                long cpuStart = threads.getCurrentThreadCpuTime();
                long wallStart = System.nanoTime();
                for (int insert = 0; insert < WINDOW; insert++) {
                    long key = 1 + random.nextInt(1_000_000_000);
                    long start = System.nanoTime();
                    long startCpu = threads.getCurrentThreadCpuTime();
                    index.putIfAbsent(key, key);
                    longestCpu = Math.max(longestCpu, threads.getCurrentThreadCpuTime() - startCpu);
                    longest = Math.max(longest, System.nanoTime() - start);
                }
                long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
                totalCpu += cpu;
                longestAll = Math.max(longestAll, longest);
                longestCpuAll = Math.max(longestCpuAll, longestCpu);
                System.out.printf("keys %,11d: %6.0f ns CPU/insert, %6.0f ns wall/insert, longest %8.2f ms wall, %8.2f ms CPU, %,d bytes INDEXES%n",
                        index.size(), (double) cpu / WINDOW, (double) (System.nanoTime() - wallStart) / WINDOW, longest / 1e6,
                        longestCpu / 1e6, memory.allocatedBytes(MemoryTag.INDEXES));
            }
            System.out.printf("random inserts: %.0f ns CPU/insert (this thread), longest %.2f ms wall, %.2f ms CPU%n",
                    (double) totalCpu / inserts, longestAll / 1e6, longestCpuAll / 1e6);
        }
        System.out.printf("after close: %,d bytes INDEXES%n", memory.allocatedBytes(MemoryTag.INDEXES));
    }
}
