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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * All 22 TPC-H queries ({@code queries/tpch/qN.sql}, the specification's validation parameters) at
 * a scale factor (default 1) with 2 threads, Parallax against DuckDB on the same rows. Each
 * invocation runs the whole statement and reads every row; Q15 creates its view in the trial's
 * setup and times the SELECT alone.
 * <p>Loading SF1 takes ~20-30 s per engine; the loaded databases are kept per JVM, so a run with
 * {@code -f 0} (all trials in one JVM, which must then carry BenchmarkFlags' options, see
 * docs/BENCHMARKS.md) loads each engine once instead of once per trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class TpchSuiteBenchmark {
    @Param({"parallax", "duckdb"})
    public String engine;

    @Param({"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14", "q15", "q16",
            "q17", "q18", "q19", "q20", "q21", "q22"})
    public String query;

    @Param({"2"})
    public int threads;

    @Param({"1"})
    public double scaleFactor;

    /** Loaded engines of this JVM by engine and scale factor (kept across trials for -f 0 runs). */
    private static final Map<String, Object> LOADED = new HashMap<>();

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;
    private String sql;
    private final List<String> cleanup = new ArrayList<>();

    @Setup(Level.Trial)
    public void load() throws Exception {
        String key = engine + "@" + scaleFactor;
        Object loaded = LOADED.get(key);
        if (engine.equals("parallax")) {
            if (loaded == null) {
                ParallaxPeer peer = new ParallaxPeer();
                peer.execute("CALL dbgen(sf => " + scaleFactor + ")");
                loaded = peer;
            }
            parallax = (ParallaxPeer) loaded;
            parallax.useThreads(threads);
            // DuckDB may use 80% of RAM before it spills; PostgreSQL's default work_mem (4MB, ×2 for
            // hash tables) would make Parallax spill SF1's large hash joins and aggregations to disk,
            // so the in-memory engines are compared with a work_mem of DuckDB's order.
            parallax.execute("SET work_mem = '2GB'");
        } else {
            if (loaded == null) {
                DuckDbPeer peer = new DuckDbPeer(threads);
                peer.loadTpch(scaleFactor);
                loaded = peer;
            }
            duckdb = (DuckDbPeer) loaded;
            duckdb.execute("SET threads = " + threads);
        }
        LOADED.put(key, loaded);
        // Q15 is CREATE VIEW; SELECT; DROP VIEW: the view is made once, the SELECT timed.
        String[] statements = DuckDbPeer.query("tpch/" + query + ".sql").split(";\\s*\\n");
        sql = null;
        for (String statement : statements) {
            String text = statement.strip();
            if (text.regionMatches(true, 0, "create view", 0, 11)) {
                execute(text);
            } else if (text.regionMatches(true, 0, "drop view", 0, 9)) {
                cleanup.add(text);
            } else if (!text.isEmpty()) {
                sql = text;
            }
        }
    }

    private void execute(String statement) throws Exception {
        if (parallax != null) {
            parallax.execute(statement);
        } else {
            duckdb.execute(statement);
        }
    }

    @Benchmark
    public long run() throws Exception {
        return parallax != null ? parallax.consume(sql) : duckdb.consume(sql);
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        for (String statement : cleanup) {
            execute(statement);
        }
        cleanup.clear();
    }
}
