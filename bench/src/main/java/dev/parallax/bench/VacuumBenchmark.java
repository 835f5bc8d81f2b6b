package dev.parallax.bench;

import dev.parallax.Autovacuum;
import dev.parallax.Database;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.sort.HyperLogLog;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vacuum.FullTableVacuum;
import dev.parallax.engine.vacuum.MaintenanceResult;
import dev.parallax.engine.vacuum.MaintenanceTask;
import dev.parallax.engine.vacuum.ParallelMaintenance;
import dev.parallax.engine.vacuum.VacuumProgress;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.parallax.bench.BenchmarkFlags.*;

/**
 * The seed's parallel vacuumdb experiment (16 tables of 4M rows went from 521 s to 197 s with
 * {@code vacuumdb -j 16} on 8 cores), scaled to this machine: {@code tables} tables of
 * {@code rows} rows {@code (id bigint, amount integer, note text)}. Before each invocation (not
 * measured) about a quarter of every table's rows die — chosen by a hash of (id, invocation), so
 * every page loses some rows and keeps most, re-inserted rows included — and the same ids are
 * inserted again at the table's end, as an update-heavy workload leaves them (a fixed pattern such
 * as {@code id % 4 == k} would soon leave pages that die whole, which VACUUM frees without copying
 * anything); the invocation then vacuums all tables with {@code workers} participants
 * ({@link ParallelMaintenance}: largest table first, each participant taking the next free one),
 * as {@code VACUUM (PARALLEL workers-1)} does.
 * <p>
 * Every invocation has the same work, whatever the number of workers and however many came before:
 * the setup first rewrites each table compactly ({@code VACUUM FULL}, not measured), so the tables
 * do not grow by a quarter of partly filled pages per invocation; both trials start from a fresh
 * database and see the same sequence of dead-row patterns; and each invocation checks that exactly
 * the dead rows were removed, from the same number of pages, and (with 2 workers) that both
 * participants vacuumed tables. The set-up ends by letting the JVM's garbage collection and JIT
 * compilations finish ({@link BackgroundWork#settle}): with 2 workers on 2 cores the measured run
 * has no core to spare for them, with 1 worker it had. For the same reason the heap cannot shrink
 * ({@link BenchmarkFlags#FIXED_HEAP}): G1 would uncommit what the set-up's collection freed while
 * the participants run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, batchSize = 1)
@Measurement(iterations = 8, batchSize = 1)
@Fork(value = 1, jvmArgsPrepend = {HEAP, FIXED_HEAP, ADD_OPENS_LANG, ADD_OPENS_REFLECT, ADD_OPENS_IO, ADD_OPENS_UTIL, ADD_EXPORTS_NIO,
        ADD_EXPORTS_REF, ADD_EXPORTS_MISC, ADD_EXPORTS_JAVAC, NATIVE_ACCESS, UNSAFE_ALLOW, NO_ANALYTICS})
public class VacuumBenchmark {
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.INTEGER, DataType.TEXT);

    @Param({"1", "2"})
    public int workers;

    @Param({"16"})
    public int tables;

    @Param({"1000000"})
    public int rows;

    private Database database;
    private final List<Table> tableList = new ArrayList<>();
    private int round;
    private long expectedRemoved;
    private long expectedPagesScanned;

    @Setup(Level.Trial)
    public void load() {
        database = Database.inMemory();
        // The daemon would vacuum some tables between the setup and the measured VACUUM.
        database.autovacuum().configure(new Autovacuum.Configuration(false, 50, 0.2, Duration.ofMinutes(1), 3));
        try (Session session = database.openSession()) {
            for (int table = 0; table < tables; table++) {
                session.execute("CREATE TABLE v" + table + " (id bigint, amount integer, note text)").close();
                session.execute("INSERT INTO v" + table + " SELECT g, (g * 7) % 1000, 'note ' || (g % 9973) FROM generate_series(1, "
                        + rows + ") AS s(g)").close();
                tableList.add(database.catalog().table("v" + table));
            }
        }
    }

    /** Kills about a quarter of the rows, spread over every page, and inserts them again (not measured). */
    @Setup(Level.Invocation)
    public void makeDeadRows() {
        long salt = ++round * 0x9E3779B97F4A7C15L;
        expectedRemoved = 0;
        expectedPagesScanned = 0;
        for (Table table : tableList) {
            FullTableVacuum.vacuum(table, VacuumProgress.NONE, () -> false);
            PagedTableStorage storage = (PagedTableStorage) table.storage();
            Batch ids = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
            Batch again = Batch.create(TYPES, Batch.DEFAULT_CAPACITY);
            List<Batch> reinserted = new ArrayList<>();
            int pending = 0;
            int pages = storage.pageCount();
            for (int page = 0; page < pages; page++) {
                if (storage.isHole(page)) {
                    continue;
                }
                int slots = storage.pageRowSlots(page);
                int[] all = new int[slots];
                for (int slot = 0; slot < slots; slot++) {
                    all[slot] = slot;
                }
                storage.readSlots(page, all, slots, new int[] {0}, ids);
                long[] values = ((LongVector) ids.column(0)).values();
                for (int slot = 0; slot < slots; slot++) {
                    long id = values[slot];
                    if ((HyperLogLog.mix(id ^ salt) & 3) == 0 && !storage.isDeleted(page, slot) && storage.delete(page, slot)) {
                        expectedRemoved++;
                        if (pending == Batch.DEFAULT_CAPACITY) {
                            again.setRowCount(pending);
                            reinserted.add(again);
                            again = Batch.create(TYPES, Batch.DEFAULT_CAPACITY);
                            pending = 0;
                        }
                        ((LongVector) again.column(0)).set(pending, id);
                        ((LongVector) again.column(1)).set(pending, (id * 7) % 1000);
                        ((BytesVector) again.column(2)).set(pending, ("note " + id % 9973).getBytes(StandardCharsets.UTF_8));
                        pending++;
                    }
                }
            }
            again.setRowCount(pending);
            reinserted.add(again);
            storage.appendAll(reinserted);
            expectedPagesScanned += storage.pageCount();
        }
        BackgroundWork.settle();
    }

    @Benchmark
    public long vacuum() {
        List<MaintenanceTask> tasks = new ArrayList<>(tableList.size());
        for (Table table : tableList) {
            tasks.add(new MaintenanceTask(table, true, false, null));
        }
        List<MaintenanceResult> results = ParallelMaintenance.run(tasks, workers, database.workers(), workers, false,
                VacuumProgress.NONE, () -> false);
        long removed = 0;
        long pagesScanned = 0;
        Set<Integer> participants = new HashSet<>();
        for (MaintenanceResult result : results) {
            removed += result.vacuum().rowsRemoved();
            pagesScanned += result.vacuum().pagesScanned();
            participants.add(result.participant());
        }
        if (removed != expectedRemoved || pagesScanned != expectedPagesScanned) {
            throw new IllegalStateException("vacuum removed " + removed + " rows of " + pagesScanned + " pages, expected "
                    + expectedRemoved + " of " + expectedPagesScanned);
        }
        if (participants.size() != Math.min(workers, tables)) {
            throw new IllegalStateException(participants.size() + " participants vacuumed tables, expected " + workers);
        }
        return removed;
    }

    @TearDown(Level.Trial)
    public void close() {
        database.close();
    }
}
