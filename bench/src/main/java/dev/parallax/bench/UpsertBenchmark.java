package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Session;
import dev.parallax.engine.memory.HugePageThread;
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

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed experiment's upsert (PostgreSQL 12: 246,627 tps on 1024 partitions, 0.74 of one
 * table): table {@code test} (one table) or {@code p} (1024 hash partitions), both
 * {@code (id int primary key, info text, crt_time timestamp)}, filled with {@code rows} rows from
 * generate_series and md5(random()::text), then the prepared statement
 * {@code insert into <table> values ($1, md5(random()::text), now()) on conflict (id) do update set
 * info = excluded.info, crt_time = excluded.crt_time} with ids random in 1..1e9, embedded API, one
 * session per benchmark thread, on 1 and 2 threads. Targets: 300,000 per second on one thread, and
 * a partitioned/single ratio of at least 0.9, which {@code bench/partition-ratio} prints
 * ({@link PartitionRatioReport}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class UpsertBenchmark {
    /** The upsert on table {@code table}. */
    static String upsert(String table) {
        return "insert into " + table + " values ($1, md5(random()::text), now()) "
                + "on conflict (id) do update set info = excluded.info, crt_time = excluded.crt_time";
    }

    /** "test" (one table) or "p" (1024 hash partitions). */
    @Param({"test", "p"})
    public String table;

    @Param({"10000000"})
    public int rows;

    Database database;

    @Setup(Level.Trial)
    public void load() throws InterruptedException {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(8L << 30).withWorkerThreads(2));
        try (Session session = database.openSession()) {
            String partitioning = table.equals("p") ? " partition by hash (id) partitions 1024" : "";
            session.execute("create table " + table + " (id int primary key, info text, crt_time timestamp)" + partitioning).close();
            session.execute("insert into " + table + " select g, md5(random()::text), now() from generate_series(1, " + rows + ") g").close();
        }
        // The table's pages and its index move onto huge pages in the background once loaded
        // (HugePageThread): measure the settled database, as PointSelectBenchmark does. Measured
        // meanwhile, the partitioned table's first iterations ran at a fifth of its later rate.
        HugePageThread.awaitIdle(Duration.ofMinutes(5));
    }

    @TearDown(Level.Trial)
    public void close() {
        database.close();
    }

    /** One session and its prepared upsert per benchmark thread. */
    @State(Scope.Thread)
    public static class Connection {
        Session session;
        PreparedQuery upsert;

        @Setup(Level.Trial)
        public void open(UpsertBenchmark benchmark) {
            session = benchmark.database.openSession();
            upsert = session.prepare(upsert(benchmark.table));
        }

        @TearDown(Level.Trial)
        public void close() {
            upsert.close();
            session.close();
        }
    }

    @Benchmark
    @Threads(1)
    public long upsert1Thread(Connection connection) {
        return upsert(connection);
    }

    @Benchmark
    @Threads(2)
    public long upsert2Threads(Connection connection) {
        return upsert(connection);
    }

    private static long upsert(Connection connection) {
        int id = 1 + ThreadLocalRandom.current().nextInt(1_000_000_000);
        try (var result = connection.upsert.execute(id)) {
            return result.rowCount();
        }
    }
}
