package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.memory.HugePageThread;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * The partition experiment's ratio with both tables in one JVM: loads {@code test} (one table) and
 * {@code p} (1024 hash partitions) with {@code rows} rows each, lets the background huge-page moves
 * settle, then runs rounds of {@code perRound} prepared statements per thread on each table in
 * alternating order, on {@code threads} threads (each its own session), and prints each round's CPU
 * time per statement (the threads' CPU over the statements they ran) and throughput, and the medians.
 * The statements are PointSelectBenchmark's ({@code select}: random ids in 1..rows, the row's columns
 * read) or UpsertBenchmark's ({@code upsert}: ids random in 1..1e9). This VM's speed drifts by up to
 * 25% between JMH trials minutes apart; rounds of the two tables alternating in one process compare
 * them under the same conditions. {@code bench/alternate select 10000000 8 500000 1} runs it.
 */
public final class PartitionAlternation {
    private static final String[] TABLES = {"test", "p"};
    /** Rounds before the counted ones: compilation settles. */
    private static final int WARMUP_ROUNDS = 3;

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !(args[0].equals("select") || args[0].equals("upsert"))) {
            System.err.println("usage: PartitionAlternation select|upsert ROWS ROUNDS STATEMENTS_PER_ROUND THREADS");
            System.exit(2);
        }
        boolean select = args[0].equals("select");
        int rows = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int perRound = Integer.parseInt(args[3]);
        int threadCount = Integer.parseInt(args[4]);
        try (Database database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(12L << 30))) {
            for (String table : TABLES) {
                try (Session session = database.openSession()) {
                    String partitioning = table.equals("p") ? " partition by hash (id) partitions 1024" : "";
                    session.execute("create table " + table + " (id int primary key, info text, crt_time timestamp)" + partitioning).close();
                    session.execute("insert into " + table + " select g, md5(random()::text), now() from generate_series(1, " + rows + ") g").close();
                }
            }
            HugePageThread.awaitIdle(Duration.ofMinutes(5));
            Client[] clients = new Client[threadCount];
            for (int thread = 0; thread < threadCount; thread++) {
                clients[thread] = new Client(database, select, rows, thread);
            }
            double[][] cpu = new double[2][rounds];
            double[][] throughput = new double[2][rounds];
            for (int round = -WARMUP_ROUNDS; round < rounds; round++) {
                for (int turn = 0; turn < 2; turn++) {
                    int table = (round & 1) == 0 ? turn : 1 - turn;
                    long[] measured = runRound(clients, table, perRound);
                    if (round >= 0) {
                        cpu[table][round] = measured[0] / (double) (perRound * threadCount);
                        throughput[table][round] = perRound * threadCount * 1e9 / measured[1];
                    }
                }
                if (round >= 0) {
                    System.out.printf("round %d: test %.0f ns cpu %.0f/s, p %.0f ns cpu %.0f/s, p/test throughput %.2f%n", round,
                            cpu[0][round], throughput[0][round], cpu[1][round], throughput[1][round],
                            throughput[1][round] / throughput[0][round]);
                }
            }
            double[] ratios = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                ratios[round] = throughput[1][round] / throughput[0][round];
            }
            System.out.printf("MEDIAN %s, %d thread(s): test %.0f/s (%.0f ns cpu), p %.0f/s (%.0f ns cpu), p/test per round %.3f%n",
                    args[0], threadCount, median(throughput[0]), median(cpu[0]), median(throughput[1]), median(cpu[1]), median(ratios));
            for (Client client : clients) {
                client.close();
            }
        }
    }

    /** Runs one round on every client's thread; returns the threads' CPU nanoseconds in total and the round's wall nanoseconds. */
    private static long[] runRound(Client[] clients, int table, int perRound) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(clients.length + 1);
        long[] cpu = new long[clients.length];
        Thread[] threads = new Thread[clients.length];
        RuntimeException[] failure = new RuntimeException[1];
        for (int index = 0; index < clients.length; index++) {
            int client = index;
            threads[index] = new Thread(() -> {
                try {
                    start.await();
                    cpu[client] = clients[client].run(table, perRound);
                } catch (InterruptedException | BrokenBarrierException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    failure[0] = e;
                }
            });
            threads[index].start();
        }
        try {
            start.await();
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
        long wallStart = System.nanoTime();
        for (Thread thread : threads) {
            thread.join();
        }
        long wall = System.nanoTime() - wallStart;
        if (failure[0] != null) {
            throw failure[0];
        }
        return new long[] {Arrays.stream(cpu).sum(), wall};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** One thread's session and its prepared statement on each table. */
    private static final class Client {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private final Session session;
        private final PreparedQuery[] statements = new PreparedQuery[2];
        private final SplittableRandom random;
        private final boolean select;
        private final int rows;
        /** Keeps the values read from being optimised away. */
        private long sink;

        Client(Database database, boolean select, int rows, int seed) {
            this.session = database.openSession();
            this.select = select;
            this.rows = rows;
            this.random = new SplittableRandom(seed);
            for (int table = 0; table < 2; table++) {
                statements[table] = session.prepare(select
                        ? "select * from " + TABLES[table] + " where id = ?"
                        : "insert into " + TABLES[table] + " values ($1, md5(random()::text), now()) "
                                + "on conflict (id) do update set info = excluded.info, crt_time = excluded.crt_time");
            }
        }

        /** Runs {@code count} statements on {@code table}; returns this thread's CPU nanoseconds for them. */
        long run(int table, int count) {
            PreparedQuery statement = statements[table];
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            for (int done = 0; done < count; done++) {
                if (select) {
                    try (Result result = statement.execute(random.nextInt(rows) + 1)) {
                        sink += PointSelectBenchmark.readRow(result);
                    }
                } else {
                    try (Result result = statement.execute(1 + random.nextInt(1_000_000_000))) {
                        if (result.rowCount() != 1) {
                            throw new IllegalStateException("an upsert changed " + result.rowCount() + " rows");
                        }
                    }
                }
            }
            return THREADS.getCurrentThreadCpuTime() - cpuStart;
        }

        void close() {
            if (sink == 42) {
                System.out.print("");
            }
            for (PreparedQuery statement : statements) {
                statement.close();
            }
            session.close();
        }
    }
}
