package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Session;
import dev.parallax.engine.memory.HugePageThread;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * UpsertBenchmark's comparison with both tables in one JVM: loads {@code test} (one table) and
 * {@code p} (1024 hash partitions) with {@code rows} rows each, lets the background huge-page moves
 * settle, then runs {@code rounds} rounds of {@code perRound} prepared upserts (ids random in
 * 1..1e9) on each table in alternating order, on one thread, and prints the thread's CPU time per
 * upsert of each round and the medians. On a machine others load, JMH trials of the two tables run
 * minutes apart under different load; alternating rounds in one process compares them under the
 * same. Run with UpsertBenchmark's JVM flags (BenchmarkFlags), e.g.
 * {@code java <flags> -cp bench/target/benchmarks.jar dev.parallax.bench.UpsertAlternation 10000000 8 200000}.
 */
public final class UpsertAlternation {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: UpsertAlternation ROWS ROUNDS UPSERTS_PER_ROUND");
            System.exit(2);
        }
        int rows = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int perRound = Integer.parseInt(args[2]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Database database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(12L << 30).withWorkerThreads(2));
        String[] tables = {"test", "p"};
        PreparedQuery[] upserts = new PreparedQuery[2];
        for (int table = 0; table < 2; table++) {
            try (Session session = database.openSession()) {
                String partitioning = tables[table].equals("p") ? " partition by hash (id) partitions 1024" : "";
                session.execute("create table " + tables[table] + " (id int primary key, info text, crt_time timestamp)" + partitioning).close();
                session.execute("insert into " + tables[table] + " select g, md5(random()::text), now() from generate_series(1, " + rows + ") g").close();
            }
        }
        HugePageThread.awaitIdle(Duration.ofMinutes(5));
        Session session = database.openSession();
        for (int table = 0; table < 2; table++) {
            upserts[table] = session.prepare("insert into " + tables[table] + " values ($1, md5(random()::text), now()) "
                    + "on conflict (id) do update set info = excluded.info, crt_time = excluded.crt_time");
        }
        double[][] cpu = new double[2][rounds];
        double[][] wall = new double[2][rounds];
        // Rounds -3 .. -1 warm up (compilation) and are not counted.
        for (int round = -3; round < rounds; round++) {
            for (int turn = 0; turn < 2; turn++) {
                int order = (round & 1) == 0 ? turn : 1 - turn;
                long cpuStart = threads.getCurrentThreadCpuTime();
                long wallStart = System.nanoTime();
                for (int upsert = 0; upsert < perRound; upsert++) {
                    int id = 1 + ThreadLocalRandom.current().nextInt(1_000_000_000);
                    try (var result = upserts[order].execute(id)) {
                        if (result.rowCount() != 1) {
                            throw new IllegalStateException("an upsert changed " + result.rowCount() + " rows");
                        }
                    }
                }
                if (round >= 0) {
                    cpu[order][round] = (threads.getCurrentThreadCpuTime() - cpuStart) / (double) perRound;
                    wall[order][round] = (System.nanoTime() - wallStart) / (double) perRound;
                }
            }
            if (round >= 0) {
                System.out.printf("round %d: test %.0f ns cpu (%.0f wall), p %.0f ns cpu (%.0f wall), ratio %.2f%n", round,
                        cpu[0][round], wall[0][round], cpu[1][round], wall[1][round], cpu[0][round] / cpu[1][round]);
            }
        }
        double test = median(cpu[0]);
        double p = median(cpu[1]);
        System.out.printf("MEDIAN cpu test %.0f ns, p %.0f ns, test/p %.3f; wall test %.0f p %.0f%n", test, p, test / p, median(wall[0]), median(wall[1]));
        session.close();
        database.close();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
