package dev.parallax.bench;

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

import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed's index-build experiment (PostgreSQL 9.6 sorted row ids as 64-bit integers for CREATE
 * INDEX; 50M random ints took 40.7 s there), at {@code rows} rows: {@code CREATE INDEX} on one
 * int column of pseudo-random values, identical in both engines ({@code (i * 1103515245 + 12345)
 * mod 2^31} for i in 1..rows). Two threads: Parallax's leader plus one maintenance worker
 * ({@code max_parallel_maintenance_workers = 1}), prefix keys on and off; DuckDB
 * {@code threads = 2} building its ART index. Each invocation builds the index; it is dropped
 * after the invocation, outside the measured time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, batchSize = 1)
@Measurement(iterations = 5, batchSize = 1)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class IndexBuildBenchmark {
    static final int THREADS = 2;

    /** "parallax-prefix" (enable_abbreviated_keys on), "parallax-full" (off), "duckdb". */
    @Param({"parallax-prefix", "parallax-full", "duckdb"})
    public String engine;

    @Param({"10000000"})
    public int rows;

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;

    @Setup(Level.Trial)
    public void load() throws Exception {
        if (engine.startsWith("parallax")) {
            parallax = new ParallaxPeer();
            parallax.execute("CREATE TABLE t_int (i int)");
            parallax.execute("INSERT INTO t_int SELECT ((i::bigint * 1103515245 + 12345) % 2147483648)::int FROM generate_series(1, "
                    + rows + ") AS s(i)");
            parallax.useThreads(THREADS);
            parallax.execute("SET max_parallel_maintenance_workers = " + (THREADS - 1));
            parallax.execute("SET maintenance_work_mem = '1GB'");
            parallax.execute("SET enable_abbreviated_keys = " + engine.equals("parallax-prefix"));
        } else {
            duckdb = new DuckDbPeer(THREADS);
            duckdb.execute("CREATE TABLE t_int AS SELECT ((i * 1103515245 + 12345) % 2147483648)::INTEGER AS i FROM range(1, "
                    + (rows + 1L) + ") AS s(i)");
        }
    }

    @Benchmark
    public void createIndex() throws Exception {
        if (parallax != null) {
            parallax.execute("CREATE INDEX t_int_i_idx ON t_int (i)");
        } else {
            duckdb.execute("CREATE INDEX t_int_i_idx ON t_int (i)");
        }
    }

    @TearDown(Level.Invocation)
    public void dropIndex() throws Exception {
        if (parallax != null) {
            parallax.execute("DROP INDEX IF EXISTS t_int_i_idx");
        } else {
            duckdb.execute("DROP INDEX IF EXISTS t_int_i_idx");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        if (parallax != null) {
            parallax.close();
        }
        if (duckdb != null) {
            duckdb.close();
        }
    }
}
