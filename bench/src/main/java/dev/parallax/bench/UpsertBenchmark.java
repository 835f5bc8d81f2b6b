package dev.parallax.bench;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Session;
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

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed experiment's upsert on one table (PostgreSQL 12: 246,627 tps on 1024 partitions):
 * {@code test (id int primary key, info text, crt_time timestamp)} filled with {@code rows} rows
 * from generate_series and md5(random()::text), then the prepared statement
 * {@code insert into test values ($1, md5(random()::text), now()) on conflict (id) do update set
 * info = excluded.info, crt_time = excluded.crt_time} with ids random in 1..1e9, embedded API, one
 * session per benchmark thread (run with {@code -t 1} and {@code -t 2}). Target: 300,000 per
 * second on one thread. The partitioned variant belongs to the partitions benchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class UpsertBenchmark {
    static final String UPSERT = "insert into test values ($1, md5(random()::text), now()) "
            + "on conflict (id) do update set info = excluded.info, crt_time = excluded.crt_time";

    @Param({"10000000"})
    public int rows;

    Database database;

    @Setup(Level.Trial)
    public void load() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(8L << 30).withWorkerThreads(2));
        try (Session session = database.openSession()) {
            session.execute("create table test (id int primary key, info text, crt_time timestamp)").close();
            session.execute("insert into test select g, md5(random()::text), now() from generate_series(1, " + rows + ") g").close();
        }
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
            upsert = session.prepare(UPSERT);
        }

        @TearDown(Level.Trial)
        public void close() {
            upsert.close();
            session.close();
        }
    }

    @Benchmark
    public long upsert(Connection connection) {
        int id = 1 + ThreadLocalRandom.current().nextInt(1_000_000_000);
        try (var result = connection.upsert.execute(id)) {
            return result.rowCount();
        }
    }
}
