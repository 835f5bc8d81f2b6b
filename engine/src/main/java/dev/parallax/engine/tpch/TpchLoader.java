package dev.parallax.engine.tpch;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import io.trino.tpch.TpchEntity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Creates the eight TPC-H tables (region, nation, supplier, customer, part, partsupp, orders,
 * lineitem) and fills them with dbgen's exact data at a scale factor, using {@code io.trino.tpch}.
 * Each table is generated in parts on the given executor, all tables at once; each table's rows
 * are appended in dbgen's order. Either all eight tables exist and are complete afterwards, or
 * (on error) none of them.
 */
public final class TpchLoader {
    /** Rows per appended batch. */
    static final int BATCH_ROWS = 4096;
    /** Rows per generator part: small enough for balance, large enough that part start-up is noise. */
    private static final long ROWS_PER_PART = 150_000;

    private final Catalog catalog;
    private final PageAllocator pageAllocator;

    public TpchLoader(Catalog catalog, PageAllocator pageAllocator) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.pageAllocator = Objects.requireNonNull(pageAllocator, "pageAllocator");
    }

    /** The eight table names, in the order they are created. */
    public static List<String> tableNames() {
        return TpchTableWriter.all(1).stream().map(writer -> writer.name).toList();
    }

    /** Rows each table will hold at {@code scaleFactor}, by name (lineitem's is an estimate: ~4 per order). */
    public static Map<String, Long> expectedRows(double scaleFactor) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (TpchTableWriter<?> writer : TpchTableWriter.all(scaleFactor)) {
            rows.put(writer.name, writer.expectedRows(scaleFactor));
        }
        return rows;
    }

    /** The columns of TPC-H table {@code tableName} at {@code scaleFactor} (order keys, up to 6,000,000 per unit of scale, widen to bigint past SF 357). */
    public static List<ColumnDefinition> columns(String tableName, double scaleFactor) {
        for (TpchTableWriter<?> writer : TpchTableWriter.all(scaleFactor)) {
            if (writer.name.equals(tableName)) {
                return writer.columns;
            }
        }
        throw new IllegalArgumentException("not a TPC-H table: " + tableName);
    }

    /**
     * Creates and fills the tables. Blocks until done; generation runs on {@code executor} in up to
     * {@code parallelism}-way parallel parts (more parts than threads, for balance). Returns the row
     * count of each table. Errors: 42P07 when one of the tables exists (nothing is created), 22023
     * for a scale factor that is not positive, 53200 when memory runs out (the tables are dropped).
     */
    public Map<String, Long> load(double scaleFactor, Executor executor, int parallelism, TpchProgressListener listener) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(listener, "listener");
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "scale factor must be positive: %s", scaleFactor);
        }
        List<TpchTableWriter<?>> writers = TpchTableWriter.all(scaleFactor);
        for (TpchTableWriter<?> writer : writers) {
            if (catalog.findTable(writer.name) != null) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", writer.name);
            }
        }
        List<Table> created = new ArrayList<>();
        try {
            for (TpchTableWriter<?> writer : writers) {
                List<DataType> types = writer.columns.stream().map(ColumnDefinition::type).toList();
                Table table = new Table(writer.name, writer.columns, new PagedTableStorage(types, pageAllocator));
                try {
                    catalog.addTable(table);
                } catch (RuntimeException taken) {
                    table.storage().close();
                    throw taken;
                }
                created.add(table);
            }
            generate(scaleFactor, writers, created, executor, Math.max(1, parallelism), listener);
        } catch (RuntimeException | Error failure) {
            for (Table table : created) {
                catalog.dropTable(table.name());
            }
            throw failure;
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (Table table : created) {
            rows.put(table.name(), table.storage().rowCount());
        }
        return rows;
    }

    private void generate(double scaleFactor, List<TpchTableWriter<?>> writers, List<Table> tables, Executor executor,
                          int parallelism, TpchProgressListener listener) {
        AtomicBoolean failed = new AtomicBoolean();
        List<CompletableFuture<Void>> tasks = new ArrayList<>();
        for (int index = 0; index < writers.size(); index++) {
            TpchTableWriter<?> writer = writers.get(index);
            Table table = tables.get(index);
            long expected = writer.expectedRows(scaleFactor);
            int partCount = writer.splittable()
                    ? (int) Math.max(Math.min(parallelism, expected), Math.min(4096, (expected + ROWS_PER_PART - 1) / ROWS_PER_PART))
                    : 1;
            AtomicLong done = new AtomicLong();
            OrderedAppender appender = new OrderedAppender(table.storage(), partCount,
                    rows -> listener.progress(writer.name, done.addAndGet(rows), expected));
            for (int part = 0; part < partCount; part++) {
                int thisPart = part;
                int parts = partCount;
                tasks.add(CompletableFuture.runAsync(() -> {
                    try {
                        generatePart(writer, scaleFactor, thisPart, parts, appender, failed);
                    } catch (RuntimeException | Error failure) {
                        failed.set(true);
                        throw failure;
                    }
                }, executor));
            }
            // Small tables report completion here; large ones when their last part lands.
            tasks.add(CompletableFuture.allOf(tasks.subList(tasks.size() - partCount, tasks.size()).toArray(CompletableFuture[]::new))
                    .thenRun(() -> listener.progress(writer.name, done.get(), done.get())));
        }
        try {
            CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException failure) {
            // Let every task stop before the caller drops the tables they write to.
            for (CompletableFuture<Void> task : tasks) {
                try {
                    task.join();
                } catch (CompletionException ignored) {
                    // The first failure is reported below.
                }
            }
            Throwable cause = firstFailure(tasks, failure);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new ParallaxException(SqlState.INTERNAL_ERROR, "TPC-H generation failed: " + cause, cause);
        }
    }

    /** The most telling failure: a user-facing error (e.g. out of memory) over a cancellation. */
    private static Throwable firstFailure(List<CompletableFuture<Void>> tasks, CompletionException fallback) {
        for (CompletableFuture<Void> task : tasks) {
            if (task.isCompletedExceptionally()) {
                try {
                    task.join();
                } catch (CompletionException failure) {
                    if (failure.getCause() instanceof ParallaxException) {
                        return failure.getCause();
                    }
                }
            }
        }
        return fallback.getCause() == null ? fallback : fallback.getCause();
    }

    private static <E extends TpchEntity> void generatePart(TpchTableWriter<E> writer, double scaleFactor, int part, int partCount,
                                                            OrderedAppender appender, AtomicBoolean failed) {
        List<DataType> types = writer.columns.stream().map(ColumnDefinition::type).toList();
        Batch batch = Batch.create(types, BATCH_ROWS);
        ColumnVector[] vectors = batch.columns();
        int rows = 0;
        // io.trino.tpch numbers parts from 1.
        for (E row : writer.table.createGenerator(scaleFactor, part + 1, partCount)) {
            writer.write(row, vectors, rows++);
            if (rows == BATCH_ROWS) {
                if (failed.get()) {
                    return;
                }
                batch.setRowCount(rows);
                if (appender.submit(part, batch)) {
                    batch.reset();
                } else {
                    batch = Batch.create(types, BATCH_ROWS);
                    vectors = batch.columns();
                }
                rows = 0;
            }
        }
        if (rows > 0) {
            batch.setRowCount(rows);
            appender.submit(part, batch);
        }
        appender.finish(part);
    }
}
