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
import org.openjdk.jmh.infra.BenchmarkParams;

import java.sql.SQLException;

import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed article's three sorts (PostgreSQL 9.6 abbreviated keys) as SQL through both engines on
 * the same rows: {@code rows} rows of one repeated 60-char text, of md5 texts, and of md5 texts in a
 * {@code char(32)} column, each {@code select t from ... order by t} read back whole and in order.
 * The md5 strings are {@code md5(i::text)} for i in 1..rows in both engines (PostgreSQL and DuckDB
 * agree on md5 of text), so both hold identical rows. Two threads: Parallax's leader plus one
 * worker sorting per participant under a Gather Merge, DuckDB {@code threads = 2}. The planner
 * would keep a full sort of every row serial at PostgreSQL's {@code parallel_tuple_cost} (0.1:
 * a row through a Gather priced like 40 operator calls, for PostgreSQL's shared-memory queues),
 * so the benchmark sets it to 0.01: Parallax's Gather hands batches over by reference. Parallax
 * runs with packed prefix keys on and off ({@code enable_abbreviated_keys}) and with
 * {@code workMem} (256MB by default, which 10M md5 rows outgrow: each participant writes sorted runs and merges them).
 * DuckDB has no blank-padded char(n) (CHAR is VARCHAR there); md5 strings have no trailing
 * blanks, so the answers agree. {@code md5TextUnordered} reads the md5 table back unsorted: the
 * cost of producing and fetching 10M rows without the sort (DuckDB's fetch through JDBC,
 * {@code getObject} per value, is a large part of its time), to subtract from the sorted figures.
 * Each trial loads only the table its benchmark reads.
 *
 * <p>The {@code ...IntoTable} variants take the client fetch out of the comparison: each engine
 * sorts into a table of its own ({@code insert into sorted select t from ... order by t}; DuckDB
 * keeps insertion order, so the sort is not optimised away), and {@code md5TextIntoTableUnordered}
 * is the same insert without ORDER BY, the cost to subtract. The target table is emptied (dropped
 * and recreated) before each invocation, outside the measured time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class SortQueryBenchmark {
    static final String REPEATED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01234567";
    static final int THREADS = 2;

    /** "parallax-prefix" (enable_abbreviated_keys on), "parallax-full" (off), "duckdb". */
    @Param({"parallax-prefix", "parallax-full", "duckdb"})
    public String engine;

    @Param({"256MB"})
    public String workMem;

    @Param({"10000000"})
    public int rows;

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;

    @Setup(Level.Trial)
    public void load(BenchmarkParams params) throws Exception {
        String benchmark = params.getBenchmark();
        String table = benchmark.contains(".repeatedText") ? "t_repeat" : benchmark.contains(".char32Md5") ? "t_char" : "t_md5";
        if (engine.startsWith("parallax")) {
            parallax = new ParallaxPeer();
            switch (table) {
                case "t_repeat" -> {
                    parallax.execute("CREATE TABLE t_repeat (t text)");
                    parallax.execute("INSERT INTO t_repeat SELECT '" + REPEATED + "' FROM generate_series(1, " + rows + ")");
                }
                case "t_md5" -> {
                    parallax.execute("CREATE TABLE t_md5 (t text)");
                    parallax.execute("INSERT INTO t_md5 SELECT md5(i::text) FROM generate_series(1, " + rows + ") AS s(i)");
                }
                default -> {
                    parallax.execute("CREATE TABLE t_char (t char(32))");
                    parallax.execute("INSERT INTO t_char SELECT md5(i::text) FROM generate_series(1, " + rows + ") AS s(i)");
                }
            }
            parallax.useThreads(THREADS);
            parallax.execute("SET parallel_tuple_cost = 0.01");
            parallax.execute("SET work_mem = '" + workMem + "'");
            parallax.execute("SET enable_abbreviated_keys = " + engine.equals("parallax-prefix"));
        } else {
            duckdb = new DuckDbPeer(THREADS);
            switch (table) {
                case "t_repeat" -> duckdb.execute("CREATE TABLE t_repeat AS SELECT '" + REPEATED + "'::VARCHAR AS t FROM range(" + rows + ")");
                case "t_md5" -> duckdb.execute("CREATE TABLE t_md5 AS SELECT md5(i::VARCHAR) AS t FROM range(1, " + (rows + 1L) + ") AS s(i)");
                default -> {
                    duckdb.execute("CREATE TABLE t_char (t CHAR(32))");
                    duckdb.execute("INSERT INTO t_char SELECT md5(i::VARCHAR) FROM range(1, " + (rows + 1L) + ") AS s(i)");
                }
            }
        }
    }

    @Benchmark
    public long repeatedText() throws Exception {
        return consume("select t from t_repeat order by t");
    }

    @Benchmark
    public long md5Text() throws Exception {
        return consume("select t from t_md5 order by t");
    }

    @Benchmark
    public long char32Md5() throws Exception {
        return consume("select t from t_char order by t");
    }

    @Benchmark
    public long md5TextUnordered() throws Exception {
        return consume("select t from t_md5");
    }

    @Benchmark
    public void md5TextIntoTable() throws Exception {
        execute("insert into sorted select t from t_md5 order by t");
    }

    @Benchmark
    public void char32Md5IntoTable() throws Exception {
        execute("insert into sorted select t from t_char order by t");
    }

    @Benchmark
    public void repeatedTextIntoTable() throws Exception {
        execute("insert into sorted select t from t_repeat order by t");
    }

    @Benchmark
    public void md5TextIntoTableUnordered() throws Exception {
        execute("insert into sorted select t from t_md5");
    }

    /** Empties the {@code ...IntoTable} benchmarks' target before each invocation (a cheap no-op for the others). */
    @Setup(Level.Invocation)
    public void emptySortedTable(BenchmarkParams params) throws Exception {
        if (params.getBenchmark().contains("IntoTable")) {
            execute("drop table if exists sorted");
            execute("create table sorted (t text)");
        }
    }

    private void execute(String sql) throws SQLException {
        if (parallax != null) {
            parallax.execute(sql);
        } else {
            duckdb.execute(sql);
        }
    }

    private long consume(String sql) throws Exception {
        long count = parallax != null ? parallax.consume(sql) : duckdb.consume(sql);
        if (count != rows) {
            throw new IllegalStateException(sql + " returned " + count + " rows, expected " + rows);
        }
        return count;
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
