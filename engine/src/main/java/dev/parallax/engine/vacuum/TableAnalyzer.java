package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.ColumnStatistics;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.sort.HyperLogLog;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * ANALYZE of one table: reads every live row (tables are in memory, so the whole table costs
 * less than PostgreSQL's 30,000-row sample costs from disk, and small tables get exact figures)
 * and computes per column the NULL fraction, the number of distinct non-NULL values
 * ({@link DistinctCounter}: exact up to 32,768 values, HyperLogLog beyond) and the minimum and
 * maximum (text by its UTF-8 bytes, as the C collation orders it). One pass, a tight loop per
 * column and page, no per-row allocation.
 */
public final class TableAnalyzer {
    private TableAnalyzer() {
    }

    /**
     * Analyzes {@code columns} of {@code table} (table column positions; all when null) and returns
     * the table's statistics: the analyzed columns' new figures, the others' from the previous
     * ANALYZE (or null). Does not store them; the caller does, so that a cancelled ANALYZE changes nothing.
     */
    public static TableStatistics analyze(Table table, int[] columns, BooleanSupplier cancelled) {
        Objects.requireNonNull(table, "table");
        TableStorage storage = table.storage();
        List<DataType> types = table.columnTypes();
        int[] analyzed = columns != null ? columns.clone() : allColumns(types.size());
        List<DataType> readTypes = new ArrayList<>(analyzed.length);
        ColumnCollector[] collectors = new ColumnCollector[analyzed.length];
        for (int index = 0; index < analyzed.length; index++) {
            DataType type = types.get(analyzed[index]);
            readTypes.add(type);
            collectors[index] = new ColumnCollector(type.vectorKind());
        }
        Batch batch = Batch.create(readTypes, Batch.DEFAULT_CAPACITY);
        int pages = storage.pageCount();
        long rows = 0;
        for (int page = 0; page < pages; page++) {
            if (cancelled.getAsBoolean()) {
                return null;
            }
            int count = storage.readPage(page, analyzed, batch);
            for (int index = 0; index < collectors.length; index++) {
                collectors[index].add(batch, index, count);
            }
            rows += count;
        }
        TableStatistics previous = table.statistics();
        List<ColumnStatistics> statistics = new ArrayList<>(types.size());
        for (int column = 0; column < types.size(); column++) {
            statistics.add(previous == null ? null : previous.column(column));
        }
        for (int index = 0; index < analyzed.length; index++) {
            statistics.set(analyzed[index], collectors[index].finish(rows));
        }
        return new TableStatistics(rows, pages, statistics, Instant.now());
    }

    private static int[] allColumns(int count) {
        int[] columns = new int[count];
        Arrays.setAll(columns, index -> index);
        return columns;
    }

    /** One column's running figures. */
    private static final class ColumnCollector {
        private final VectorKind kind;
        private final DistinctCounter distinct = new DistinctCounter();
        private long nulls;
        private long values;
        private long longMinimum = Long.MAX_VALUE;
        private long longMaximum = Long.MIN_VALUE;
        private double doubleMinimum = Double.POSITIVE_INFINITY;
        private double doubleMaximum = Double.NEGATIVE_INFINITY;
        private byte[] bytesMinimum;
        private byte[] bytesMaximum;

        ColumnCollector(VectorKind kind) {
            this.kind = kind;
        }

        void add(Batch batch, int column, int count) {
            var vector = batch.column(column);
            boolean mayHaveNulls = vector.mayHaveNulls();
            switch (kind) {
                case LONG -> {
                    long[] data = ((LongVector) vector).values();
                    for (int row = 0; row < count; row++) {
                        if (mayHaveNulls && vector.isNull(row)) {
                            nulls++;
                            continue;
                        }
                        long value = data[row];
                        longMinimum = Math.min(longMinimum, value);
                        longMaximum = Math.max(longMaximum, value);
                        distinct.add(HyperLogLog.mix(value));
                        values++;
                    }
                }
                case DOUBLE -> {
                    double[] data = ((DoubleVector) vector).values();
                    for (int row = 0; row < count; row++) {
                        if (mayHaveNulls && vector.isNull(row)) {
                            nulls++;
                            continue;
                        }
                        double value = data[row];
                        doubleMinimum = Math.min(doubleMinimum, value);
                        doubleMaximum = Math.max(doubleMaximum, value);
                        // -0.0 and 0.0 are equal in SQL: hash them alike.
                        distinct.add(HyperLogLog.mix(Double.doubleToLongBits(value == 0 ? 0.0 : value)));
                        values++;
                    }
                }
                case BYTES -> {
                    BytesVector bytes = (BytesVector) vector;
                    byte[] data = bytes.data();
                    int[] offsets = bytes.offsets();
                    int[] lengths = bytes.lengths();
                    for (int row = 0; row < count; row++) {
                        if (mayHaveNulls && vector.isNull(row)) {
                            nulls++;
                            continue;
                        }
                        int offset = offsets[row];
                        int length = lengths[row];
                        distinct.add(hash(data, offset, length));
                        if (bytesMinimum == null || Arrays.compareUnsigned(data, offset, offset + length, bytesMinimum, 0, bytesMinimum.length) < 0) {
                            bytesMinimum = Arrays.copyOfRange(data, offset, offset + length);
                        }
                        if (bytesMaximum == null || Arrays.compareUnsigned(data, offset, offset + length, bytesMaximum, 0, bytesMaximum.length) > 0) {
                            bytesMaximum = Arrays.copyOfRange(data, offset, offset + length);
                        }
                        values++;
                    }
                }
            }
        }

        ColumnStatistics finish(long rows) {
            double nullFraction = rows == 0 ? 0 : (double) nulls / rows;
            if (values == 0) {
                return new ColumnStatistics(nullFraction, 0, null, null);
            }
            double distinctCount = Math.min(values, Math.rint(distinct.estimate()));
            return switch (kind) {
                case LONG -> new ColumnStatistics(nullFraction, distinctCount, longMinimum, longMaximum);
                case DOUBLE -> new ColumnStatistics(nullFraction, distinctCount, doubleMinimum, doubleMaximum);
                case BYTES -> new ColumnStatistics(nullFraction, distinctCount, bytesMinimum, bytesMaximum);
            };
        }

        /** 64-bit FNV-1a over the bytes, then the murmur3 finalizer so HyperLogLog gets well-spread bits. */
        private static long hash(byte[] data, int offset, int length) {
            long hash = 0xcbf29ce484222325L;
            for (int index = offset; index < offset + length; index++) {
                hash ^= data[index] & 0xff;
                hash *= 0x100000001b3L;
            }
            return HyperLogLog.mix(hash ^ length);
        }
    }
}
