package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.index.HookedUniqueIndex;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.operator.scan.UniqueIndexLookup;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.KeyLookup;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.OnConflict;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.ConsistentScans;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readers that take no lock (point lookups through a unique index, scans of several partitions)
 * racing a writer's step, each race played out in a fixed order: the writer or the reader is
 * stopped at the exact point where the race matters by a {@link HookedUniqueIndex} or a storage
 * whose scan opening runs another statement first.
 */
class ReadersDuringWriteStepsTest {
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.BIGINT);
    private static final int[] BOTH_COLUMNS = {0, 1};

    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final PageAllocator allocator = new PageAllocator(memory, 4096);
    private final List<Table> tables = new ArrayList<>();

    private final WorkerPool workers = new WorkerPool(1, 1);

    @AfterEach
    void closeAll() {
        workers.close();
        for (Table table : tables) {
            table.storage().close();
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                constraint.index().close();
            }
        }
        allocator.close();
        assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES));
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    /** Table {@code name (a bigint primary key, b bigint unique)}, both indexes hooked; with {@code keys} false, no index. */
    private Table table(String name, boolean keys) {
        List<ColumnDefinition> columns = List.of(new ColumnDefinition("a", DataType.BIGINT, true),
                new ColumnDefinition("b", DataType.BIGINT, false));
        Table table = new Table(name, columns, new PagedTableStorage(TYPES, allocator));
        tables.add(table);
        if (keys) {
            table.addUniqueConstraint(new UniqueConstraint(new HookedUniqueIndex(UniqueIndexes.create(
                    IndexDefinition.primaryKey(name, List.of("a"), List.of(DataType.BIGINT)), memory)), new int[] {0}));
            table.addUniqueConstraint(new UniqueConstraint(new HookedUniqueIndex(UniqueIndexes.create(
                    IndexDefinition.unique(name, List.of("b"), List.of(DataType.BIGINT)), memory)), new int[] {1}));
        }
        return table;
    }

    private static HookedUniqueIndex index(Table table, int constraint) {
        return (HookedUniqueIndex) table.uniqueConstraints().get(constraint).index();
    }

    /** Rows (a, b) from pairs of values. */
    private static Batch rows(long... pairs) {
        Batch batch = Batch.create(TYPES, pairs.length / 2);
        for (int row = 0; row < pairs.length / 2; row++) {
            ((LongVector) batch.column(0)).set(row, pairs[2 * row]);
            ((LongVector) batch.column(1)).set(row, pairs[2 * row + 1]);
        }
        batch.setRowCount(pairs.length / 2);
        return batch;
    }

    /** The one row a lookup returned as [a, b], or null for none. */
    private static List<Long> row(Batch found) {
        if (found == null) {
            return null;
        }
        assertEquals(1, found.rowCount());
        return List.of(((LongVector) found.column(0)).get(0), ((LongVector) found.column(1)).get(0));
    }

    /**
     * {@code update t set b = 11 where a = 1}: the step keeps key a and changes key b. A point
     * lookup running inside the step, once the new b is entered and before the publish, finds by a
     * the old version (the entry moves to the new one only after the publish: before, it named a
     * slot not readable yet, and the lookup failed with IndexOutOfBoundsException), and by the new
     * b nothing yet (its entry names that slot: the key does not exist until the publish).
     */
    @Test
    void pointLookupsInsideAnUpdateStepFindThePublishedVersion() {
        Table table = table("t", true);
        TableAppender.appendAll(table, List.of(rows(1, 10, 2, 20)));
        UniqueIndexLookup byA = new UniqueIndexLookup(table, table.uniqueConstraints().get(0), BOTH_COLUMNS);
        UniqueIndexLookup byB = new UniqueIndexLookup(table, table.uniqueConstraints().get(1), BOTH_COLUMNS);
        TableChanges changes = TableChanges.acquire(table);
        changes.addNew(rows(1, 11), 0, changes.addOld(RowIds.pack(0, 0), rows(1, 10), 0));
        List<List<Long>> seenInside = new ArrayList<>();
        index(table, 1).once(HookedUniqueIndex.Point.AFTER_PUT, () -> {
            seenInside.add(row(byA.lookupLong(1)));
            seenInside.add(row(byB.lookupLong(11)));
        });
        assertTrue(changes.apply(null));
        changes.release();
        assertEquals(Arrays.asList(List.of(1L, 10L), null), seenInside);
        assertEquals(List.of(1L, 11L), row(byA.lookupLong(1)));
        assertEquals(List.of(1L, 11L), row(byB.lookupLong(11)));
        assertEquals(null, row(byB.lookupLong(10)));
        assertEquals(List.of(2L, 20L), row(byA.lookupLong(2)));
    }

    /**
     * A writer's step enters key a = 2 for a row it placed in slot 1 and then gives up; another
     * append takes slot 1 for the row a = 3. A point lookup of a = 2 that found the entry while the
     * step ran and reads the slot only afterwards would return the row a = 3; it sees that a step
     * was abandoned meanwhile and looks again: a = 2 does not exist.
     */
    @Test
    void pointLookupHoldingTheRowIdOfAnAbandonedStepLooksAgain() throws Exception {
        Table table = table("t", true);
        TableAppender.appendAll(table, List.of(rows(1, 10)));
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        UniqueIndexLookup byA = new UniqueIndexLookup(table, table.uniqueConstraints().get(0), BOTH_COLUMNS);
        CountDownLatch placed = new CountDownLatch(1);
        CountDownLatch giveUp = new CountDownLatch(1);
        Thread writer = writer(() -> storage.appendAll(List.of(rows(2, 20)), (batches, rowIds) -> {
            long rowId = rowIds[0][0];
            assertEquals(RowIds.pack(0, 1), rowId);
            index(table, 0).putIfAbsent(batches.getFirst(), new int[] {0}, 0, rowId);
            placed.countDown();
            awaitLatch(giveUp);
            index(table, 0).remove(batches.getFirst(), new int[] {0}, 0, rowId);
            throw new IllegalStateException("the step gives up");
        }));
        awaitLatch(placed);
        long abandonedBefore = storage.abandonedSteps();
        index(table, 0).once(HookedUniqueIndex.Point.AFTER_GET, () -> {
            // The lookup found a = 2 in slot 1: now the step gives up and a = 3 takes the slot.
            giveUp.countDown();
            joinThread(writer);
            TableAppender.appendAll(table, List.of(rows(3, 30)));
        });
        assertEquals(null, row(byA.lookupLong(2)));
        assertEquals(abandonedBefore + 1, storage.abandonedSteps());
        assertEquals(List.of(3L, 30L), row(byA.lookupLong(3)));
        assertEquals(List.of(1L, 10L), row(byA.lookupLong(1)));
    }

    /**
     * A statement moves row 3 from partition B to partition A while a reader opens scans of A and
     * then B: opened one after the other, A's scan would not have the row yet and B's no longer.
     * {@link ConsistentScans} sees that A took part in a publish of several partitions after its
     * scan opened, and opens both again: the row is seen once, in A.
     */
    @Test
    void consistentScansSeeARowMovedBetweenTwoOpeningsOnce() {
        Table partitionA = table("a", false);
        Table partitionB = table("b", false);
        partitionA.storage().append(rows(10, 0, 11, 0));
        partitionB.storage().append(rows(1, 0, 2, 0, 3, 0));
        Runnable move = () -> {
            TableChanges intoA = TableChanges.acquire(partitionA);
            TableChanges outOfB = TableChanges.acquire(partitionB);
            intoA.addNew(rows(3, 0), 0, -1);
            outOfB.addOld(RowIds.pack(0, 2), rows(3, 0), 0);
            assertTrue(TableChanges.applyAll(List.of(intoA, outOfB), null));
            intoA.release();
            outOfB.release();
        };
        List<TableStorage> storages = List.of(partitionA.storage(), new MovingBeforeOpening(partitionB.storage(), move));
        ScanCursor[] cursors = ConsistentScans.open(storages, 1);
        try {
            List<Long> seen = new ArrayList<>();
            seen.addAll(keys(partitionA.storage(), cursors[0]));
            seen.addAll(keys(partitionB.storage(), cursors[1]));
            assertEquals(List.of(10L, 11L, 3L, 1L, 2L), seen);
        } finally {
            for (ScanCursor cursor : cursors) {
                cursor.close();
            }
        }
        assertEquals(0, partitionA.storage().groupSequence() & 1);
    }

    /**
     * A step changing key a from 1 to 5 removes key 1 from the index and gives up. An UPDATE by
     * point lookup of a = 1 that looked the key up while the step ran found it missing; it sees
     * that a step was abandoned before it finished and looks again (it answered UPDATE 0 for a
     * row that was there all along).
     */
    @Test
    void updateByKeyThatFoundItsKeyMissingDuringAnAbandonedStepLooksAgain() throws Exception {
        Table table = table("t", true);
        TableAppender.appendAll(table, List.of(rows(1, 10)));
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        CountDownLatch changing = new CountDownLatch(1);
        CountDownLatch giveUp = new CountDownLatch(1);
        int[] keyColumn = {0};
        Thread writer = writer(() -> storage.modify(List.of(rows(5, 10)), new long[] {RowIds.pack(0, 0)}, 1, (batches, rowIds) -> {
            Batch oldRow = rows(1, 10);
            assertTrue(index(table, 0).remove(oldRow, keyColumn, 0, RowIds.pack(0, 0)));
            assertTrue(index(table, 0).putIfAbsent(batches.getFirst(), keyColumn, 0, rowIds[0][0]));
            changing.countDown();
            awaitLatch(giveUp);
            index(table, 0).remove(batches.getFirst(), keyColumn, 0, rowIds[0][0]);
            index(table, 0).putIfAbsent(oldRow, keyColumn, 0, RowIds.pack(0, 0));
            throw new IllegalStateException("the step gives up");
        }));
        awaitLatch(changing);
        Expr keyIsOne = new Call(Function.EQUAL, List.of(new ColumnRef(0, DataType.BIGINT), new Literal(1L, DataType.BIGINT)),
                DataType.BOOLEAN);
        Expr incremented = new Call(Function.ADD, List.of(new ColumnRef(1, DataType.BIGINT), new Literal(1L, DataType.BIGINT)),
                DataType.BIGINT);
        ModifyTableNode update = new ModifyTableNode(ModifyOperation.UPDATE, table,
                new FilterNode(new SeqScanNode(table, BOTH_COLUMNS, false, PlanEstimate.UNKNOWN), keyIsOne, PlanEstimate.UNKNOWN),
                new KeyLookup(table.uniqueConstraints().getFirst(), List.of(new Literal(1L, DataType.BIGINT))),
                Arrays.asList(null, incremented), null, List.of(), PlanEstimate.UNKNOWN);
        index(table, 0).once(HookedUniqueIndex.Point.AFTER_GET, () -> {
            // The lookup found key 1 missing: now the step gives up, and key 1 is back.
            giveUp.countDown();
            joinThread(writer);
        });
        ModifyTableOperator operator = new ModifyTableOperator(update, null, context());
        try {
            assertEquals(1L, ((LongVector) operator.next().column(0)).get(0));
        } finally {
            operator.close();
        }
        assertEquals(List.of(List.of(1L, 11L)), liveRows(storage));
    }

    /**
     * As {@link #pointLookupHoldingTheRowIdOfAnAbandonedStepLooksAgain}, for the upsert's lookup of
     * its conflict: {@code insert (2, 99) on conflict (a) do update set b = excluded.b} found a = 2
     * in a slot the row a = 3 took after the step gave up. Reading on, it would have updated row 3
     * (to (3, 99)) in place of inserting (2, 99).
     */
    @Test
    void upsertHoldingTheRowIdOfAnAbandonedStepLooksAgain() throws Exception {
        Table table = table("t", true);
        TableAppender.appendAll(table, List.of(rows(1, 10)));
        PagedTableStorage storage = (PagedTableStorage) table.storage();
        CountDownLatch placed = new CountDownLatch(1);
        CountDownLatch giveUp = new CountDownLatch(1);
        Thread writer = writer(() -> storage.appendAll(List.of(rows(2, 20)), (batches, rowIds) -> {
            index(table, 0).putIfAbsent(batches.getFirst(), new int[] {0}, 0, rowIds[0][0]);
            placed.countDown();
            awaitLatch(giveUp);
            index(table, 0).remove(batches.getFirst(), new int[] {0}, 0, rowIds[0][0]);
            throw new IllegalStateException("the step gives up");
        }));
        awaitLatch(placed);
        ModifyTableNode upsert = new ModifyTableNode(ModifyOperation.INSERT, table,
                new ValuesNode(List.of(List.of(new Literal(2L, DataType.BIGINT), new Literal(99L, DataType.BIGINT))), TYPES,
                        PlanEstimate.UNKNOWN),
                null, List.of(), new OnConflict(ConflictAction.UPDATE, List.of(table.uniqueConstraints().getFirst()),
                Arrays.asList(null, new ColumnRef(3, DataType.BIGINT)), null), List.of(), PlanEstimate.UNKNOWN);
        PointUpsert pointUpsert = PointUpsert.of(upsert, context());
        index(table, 0).once(HookedUniqueIndex.Point.AFTER_GET, () -> {
            giveUp.countDown();
            joinThread(writer);
            TableAppender.appendAll(table, List.of(rows(3, 30)));
        });
        pointUpsert.values().bind(new Object[0], 0);
        assertEquals(1, pointUpsert.execute());
        assertEquals(List.of(List.of(1L, 10L), List.of(2L, 99L), List.of(3L, 30L)), liveRows(storage));
    }

    private ExecutionContext context() {
        return new ExecutionContext(memory, workers, new Settings(), new Object[0], 0, false);
    }

    /** Starts a thread running a writer's step that is expected to give up. */
    private static Thread writer(Runnable step) {
        Thread thread = new Thread(() -> {
            try {
                step.run();
            } catch (IllegalStateException expected) {
                // The step gave up, as the test made it.
            }
        });
        thread.start();
        return thread;
    }

    /** The live rows of {@code storage} as [a, b], ordered by a. */
    private static List<List<Long>> liveRows(TableStorage storage) {
        List<List<Long>> rows = new ArrayList<>();
        Batch page = Batch.create(TYPES, Batch.DEFAULT_CAPACITY);
        for (int pageIndex = 0; pageIndex < storage.pageCount(); pageIndex++) {
            int count = storage.readPage(pageIndex, BOTH_COLUMNS, page);
            for (int row = 0; row < count; row++) {
                rows.add(List.of(((LongVector) page.column(0)).get(row), ((LongVector) page.column(1)).get(row)));
            }
        }
        rows.sort(Comparator.comparing(row -> row.getFirst()));
        return rows;
    }

    /** The keys (column a) a scan with {@code cursor} reads from {@code storage}, in page order. */
    private static List<Long> keys(TableStorage storage, ScanCursor cursor) {
        List<Long> keys = new ArrayList<>();
        Batch page = Batch.create(TYPES, Batch.DEFAULT_CAPACITY);
        for (long chunk = cursor.nextChunk(); chunk != ScanCursor.EXHAUSTED; chunk = cursor.nextChunk()) {
            for (int pageIndex = ScanCursor.firstPage(chunk); pageIndex < ScanCursor.firstPage(chunk) + ScanCursor.pageCount(chunk); pageIndex++) {
                int rows = storage.readPage(pageIndex, BOTH_COLUMNS, page, cursor.snapshot(), null);
                for (int row = 0; row < rows; row++) {
                    keys.add(((LongVector) page.column(0)).get(row));
                }
            }
        }
        return keys;
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }

    private static void joinThread(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
        assertTrue(!thread.isAlive(), "the writer did not finish");
    }

    /** A storage whose first scan opening runs a statement first (the one that moves a row). */
    private static final class MovingBeforeOpening implements TableStorage {
        private final TableStorage storage;
        private Runnable beforeFirstOpening;

        MovingBeforeOpening(TableStorage storage, Runnable beforeFirstOpening) {
            this.storage = storage;
            this.beforeFirstOpening = beforeFirstOpening;
        }

        @Override
        public ScanCursor openScan(int chunkPages) {
            Runnable action = beforeFirstOpening;
            beforeFirstOpening = null;
            if (action != null) {
                action.run();
            }
            return storage.openScan(chunkPages);
        }

        @Override
        public long groupSequence() {
            return storage.groupSequence();
        }

        @Override
        public List<DataType> columnTypes() {
            return storage.columnTypes();
        }

        @Override
        public void append(Batch batch) {
            storage.append(batch);
        }

        @Override
        public int pageCount() {
            return storage.pageCount();
        }

        @Override
        public long rowCount() {
            return storage.rowCount();
        }

        @Override
        public long sizeBytes() {
            return storage.sizeBytes();
        }

        @Override
        public int readPage(int pageIndex, int[] columns, Batch target) {
            return storage.readPage(pageIndex, columns, target);
        }

        @Override
        public void close() {
            storage.close();
        }
    }
}
