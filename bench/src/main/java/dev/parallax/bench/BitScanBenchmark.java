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
 * The seed article's experiment (PostgreSQL 9.6 parallel scan): a table {@code t_bit2} of
 * {@code rows} copies of a 200-bit value; {@code count(*)} and the {@code bitand} filter with
 * 0, 1 and 2 workers, and count(*) with one-page claims against automatic chunks. DuckDB runs the
 * same queries on the same table (its BIT type, {@code &} operator) with workers + 1 threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class BitScanBenchmark {
    static final String BITS = "10".repeat(100);

    @Param({"parallax", "duckdb"})
    public String engine;

    @Param({"0", "1", "2"})
    public int workers;

    /** Parallax's parallel_scan_chunk_pages: 0 = automatic (PostgreSQL 14), 1 = one page per claim. */
    @Param({"0", "1"})
    public int chunkPages;

    @Param({"10000000"})
    public int rows;

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;

    @Setup(Level.Trial)
    public void load() throws Exception {
        if (engine.equals("parallax")) {
            parallax = new ParallaxPeer();
            parallax.execute("CREATE TABLE t_bit2 (id bit(200))");
            parallax.execute("INSERT INTO t_bit2 SELECT B'" + BITS + "' FROM generate_series(1, " + rows + ")");
            parallax.execute("SET max_parallel_workers_per_gather = " + workers);
            parallax.execute("ALTER TABLE t_bit2 SET (parallel_workers = " + workers + ")");
            parallax.execute("SET parallel_scan_chunk_pages = " + chunkPages);
        } else {
            duckdb = new DuckDbPeer(workers + 1);
            duckdb.execute("CREATE TABLE t_bit2 (id BIT)");
            duckdb.execute("INSERT INTO t_bit2 SELECT '" + BITS + "'::BIT FROM range(" + rows + ")");
        }
    }

    @Benchmark
    public long countStar() throws Exception {
        String sql = "select count(*) from t_bit2";
        return parallax != null ? parallax.consume(sql) : duckdb.consume(sql);
    }

    @Benchmark
    public long bitandFilter() throws Exception {
        String sql = parallax != null
                ? "select count(*) from t_bit2 where bitand(id, B'" + BITS + "') = B'" + BITS + "'"
                : "select count(*) from t_bit2 where (id & '" + BITS + "'::BIT) = '" + BITS + "'::BIT";
        return parallax != null ? parallax.consume(sql) : duckdb.consume(sql);
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
