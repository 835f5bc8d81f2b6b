package dev.parallax.bench;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.sort.SortedOutput;
import dev.parallax.engine.sort.Sorter;
import dev.parallax.engine.type.DataType;
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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The Sorter alone on the seed article's sorts (PostgreSQL 9.6 abbreviated keys): {@code rows}
 * rows of (id integer, value) ordered by value, all rows read back in order, with packed prefix
 * keys on and off. Data sets: one repeated 60-char text, md5 texts, char(32) md5, random ints
 * (the CREATE INDEX key). work_mem is large enough for an in-memory sort, so this measures the
 * sort itself; the SQL-level benchmark with DuckDB beside it belongs to the ORDER BY operator.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class SortBenchmark {
    @Param({"md5Text", "repeatedText", "char32Md5", "randomInts"})
    public String data;

    @Param({"true", "false"})
    public boolean abbreviatedKeys;

    @Param({"10000000"})
    public int rows;

    private List<DataType> types;
    private List<Batch> batches;
    private SortOptions options;

    @Setup(Level.Trial)
    public void generate() throws Exception {
        DataType valueType = switch (data) {
            case "md5Text", "repeatedText" -> DataType.TEXT;
            case "char32Md5" -> DataType.charType(32);
            case "randomInts" -> DataType.INTEGER;
            default -> throw new IllegalArgumentException("unknown data set " + data);
        };
        types = List.of(DataType.INTEGER, valueType);
        batches = new ArrayList<>();
        Random random = new Random(42);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        byte[] repeated = "1".repeat(60).getBytes(StandardCharsets.US_ASCII);
        HexFormat hex = HexFormat.of();
        for (int from = 0; from < rows; from += Batch.DEFAULT_CAPACITY) {
            int count = Math.min(Batch.DEFAULT_CAPACITY, rows - from);
            Batch batch = Batch.create(types, count);
            LongVector ids = (LongVector) batch.column(0);
            for (int index = 0; index < count; index++) {
                ids.set(index, from + index);
                switch (data) {
                    case "repeatedText" -> ((BytesVector) batch.column(1)).set(index, repeated);
                    case "randomInts" -> ((LongVector) batch.column(1)).set(index, random.nextInt(rows * 5));
                    default -> {
                        // md5(random()::text), as the seed article loads it
                        byte[] digest = md5.digest(Double.toString(random.nextDouble()).getBytes(StandardCharsets.US_ASCII));
                        ((BytesVector) batch.column(1)).set(index, hex.formatHex(digest).getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            batch.setRowCount(count);
            batches.add(batch);
        }
        options = new SortOptions(8L << 30, abbreviatedKeys, SortOptions.defaultTempDirectory());
    }

    @Benchmark
    public long sortAllRows() {
        long checksum = 0;
        try (Sorter sorter = new Sorter(types, List.of(new SortKey(1, false, false)), -1, options)) {
            for (Batch batch : batches) {
                sorter.add(batch);
            }
            try (SortedOutput output = sorter.finish()) {
                Batch batch;
                while ((batch = output.next()) != null) {
                    LongVector ids = (LongVector) batch.column(0);
                    checksum = checksum * 31 + ids.get(batch.position(batch.selectedCount() - 1));
                }
            }
        }
        return checksum;
    }
}
