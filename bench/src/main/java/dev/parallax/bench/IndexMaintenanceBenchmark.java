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
 * An indexed table that keeps receiving rows: {@code rows} pseudo-random ints (as
 * {@link IndexBuildBenchmark}'s) with {@code CREATE INDEX} on them, then each invocation inserts
 * {@code inserted} more rows and runs one range count through the index, which must first take in
 * the new rows. Parallax merges them into the index's order (a binary search per new row and one
 * copy of the entries) instead of re-sorting the table as it did before; DuckDB maintains its ART
 * index on insert. Two threads in both engines. The table grows by {@code inserted} rows per
 * invocation, which is negligible next to {@code rows}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class IndexMaintenanceBenchmark {
    static final int THREADS = 2;

    @Param({"parallax", "duckdb"})
    public String engine;

    @Param({"10000000"})
    public int rows;

    @Param({"1000"})
    public int inserted;

    private ParallaxPeer parallax;
    private DuckDbPeer duckdb;
    private long nextRow;

    @Setup(Level.Trial)
    public void load() throws Exception {
        nextRow = rows + 1L;
        if (engine.equals("parallax")) {
            parallax = new ParallaxPeer();
            parallax.execute("CREATE TABLE t_int (i int)");
            parallax.execute("INSERT INTO t_int SELECT ((i::bigint * 1103515245 + 12345) % 2147483648)::int FROM generate_series(1, "
                    + rows + ") AS s(i)");
            parallax.useThreads(THREADS);
            parallax.execute("SET max_parallel_maintenance_workers = " + (THREADS - 1));
            parallax.execute("SET maintenance_work_mem = '1GB'");
            parallax.execute("CREATE INDEX t_int_i_idx ON t_int (i)");
        } else {
            duckdb = new DuckDbPeer(THREADS);
            duckdb.execute("CREATE TABLE t_int AS SELECT ((i * 1103515245 + 12345) % 2147483648)::INTEGER AS i FROM range(1, "
                    + (rows + 1L) + ") AS s(i)");
            duckdb.execute("CREATE INDEX t_int_i_idx ON t_int (i)");
        }
    }

    /** Inserts the next {@code inserted} rows of the same sequence, then counts a narrow key range through the index. */
    @Benchmark
    public long insertThenRangeCount() throws Exception {
        long first = nextRow;
        long last = first + inserted - 1;
        nextRow = last + 1;
        String count = "SELECT count(*) FROM t_int WHERE i BETWEEN 1000000 AND 1100000";
        if (parallax != null) {
            parallax.execute("INSERT INTO t_int SELECT ((i::bigint * 1103515245 + 12345) % 2147483648)::int FROM generate_series("
                    + first + ", " + last + ") AS s(i)");
            return parallax.consume(count);
        }
        duckdb.execute("INSERT INTO t_int SELECT ((i * 1103515245 + 12345) % 2147483648)::INTEGER FROM range(" + first + ", "
                + (last + 1) + ") AS s(i)");
        return duckdb.consume(count);
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
