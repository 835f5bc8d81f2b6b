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
 * TPC-H Q1 and Q6 at a scale factor (default 1), Parallax against DuckDB on the same rows, with 1
 * and 2 threads. Run: {@code java -jar bench/target/benchmarks.jar TpchQueryBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class TpchQueryBenchmark {
    @Param({"parallax", "duckdb"})
    public String engine;

    @Param({"1", "2"})
    public int threads;

    @Param({"q1", "q6"})
    public String query;

    @Param({"1"})
    public double scaleFactor;

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;
    private String sql;

    @Setup(Level.Trial)
    public void load() throws Exception {
        sql = DuckDbPeer.query("tpch/" + query + ".sql");
        if (engine.equals("parallax")) {
            parallax = new ParallaxPeer();
            parallax.execute("CALL dbgen(sf => " + scaleFactor + ")");
            parallax.useThreads(threads);
            // DuckDB may use 80% of RAM before it spills; PostgreSQL's default work_mem (4MB, ×2 for
            // hash tables) would make Parallax spill SF1's large hash joins and aggregations to disk,
            // so the in-memory engines are compared with a work_mem of DuckDB's order.
            parallax.execute("SET work_mem = '2GB'");
        } else {
            duckdb = new DuckDbPeer(threads);
            duckdb.loadTpch(scaleFactor);
        }
    }

    @Benchmark
    public long run() throws Exception {
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
