package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.memory.HugePageThread;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed's partition experiment (PostgreSQL 12 took a prepared point select on 1024 hash
 * partitions from 1,163 to 545,602 tps by pruning before building per-partition structures), at
 * {@code rows} rows instead of the article's 100M: table {@code test} (one table) or {@code p}
 * (1024 hash partitions), both {@code id int primary key, info text, crt_time timestamp}, filled
 * with {@code insert ... select g, md5(random()::text), now() from generate_series(1, rows) g}. Each thread has its own
 * session and prepared {@code select * from <table> where id = ?} and looks up uniformly random
 * ids through the embedded API, reading the row's columns. Throughput in operations per second;
 * the partitioned/single ratio is the target (at least 0.9): {@code bench/partition-ratio}
 * runs this benchmark and {@link UpsertBenchmark} on both tables and prints it
 * ({@link PartitionRatioReport}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class PointSelectBenchmark {
    /** "test" (one table) or "p" (1024 hash partitions). */
    @Param({"test", "p"})
    public String table;

    @Param({"10000000"})
    public int rows;

    private Database database;

    @Setup(Level.Trial)
    public void load() throws InterruptedException {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(8L << 30));
        try (Session session = database.openSession()) {
            String partitioning = table.equals("p") ? " partition by hash (id) partitions 1024" : "";
            run(session, "create table " + table + " (id int primary key, info text, crt_time timestamp)" + partitioning);
            // The seed's "select generate_series(1, n), ..." with the set-returning function in FROM: the same
            // rows, and the load this benchmark has always measured (the select-list form runs as fast).
            run(session, "insert into " + table + " select g, md5(random()::text), now() from generate_series(1, " + rows + ") g");
        }
        // The table's pages move onto huge pages in the background once loaded
        // (HugePageThread): measure the settled database, as a long-running one would be.
        HugePageThread.awaitIdle(Duration.ofMinutes(5));
    }

    private static void run(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            while (result.nextBatch() != null) {
                // drain
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        database.close();
    }

    /** One session, prepared statement and random sequence per benchmark thread. */
    @State(Scope.Thread)
    public static class Client {
        private Session session;
        private PreparedQuery select;
        private SplittableRandom random;
        private int rows;

        @Setup(Level.Trial)
        public void open(PointSelectBenchmark benchmark) {
            session = benchmark.database.openSession();
            select = session.prepare("select * from " + benchmark.table + " where id = ?");
            random = new SplittableRandom(Thread.currentThread().threadId());
            rows = benchmark.rows;
        }

        @TearDown(Level.Trial)
        public void close() {
            select.close();
            session.close();
        }
    }

    @Benchmark
    @Threads(1)
    public void pointSelect1Thread(Client client, Blackhole blackhole) {
        pointSelect(client, blackhole);
    }

    @Benchmark
    @Threads(2)
    public void pointSelect2Threads(Client client, Blackhole blackhole) {
        pointSelect(client, blackhole);
    }

    private static void pointSelect(Client client, Blackhole blackhole) {
        try (Result result = client.select.execute(client.random.nextInt(client.rows) + 1)) {
            blackhole.consume(readRow(result));
        }
    }

    /**
     * Reads the one row of a point select's {@code result} (id, a byte of info, crt_time) and returns
     * a value that depends on them all, for the caller to consume.
     */
    static long readRow(Result result) {
        Batch batch = result.nextBatch();
        if (batch == null || batch.selectedCount() != 1) {
            throw new IllegalStateException("point select found no row");
        }
        int position = batch.position(0);
        BytesVector info = (BytesVector) batch.column(1);
        return ((LongVector) batch.column(0)).get(position) + info.data()[info.offset(position)]
                + ((LongVector) batch.column(2)).get(position);
    }
}
