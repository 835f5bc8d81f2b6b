package dev.parallax.engine.vacuum;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableTruncationTest {
    private static final Runnable NOT_CANCELLED = () -> {
    };

    @Test
    void freesEveryPageAndEveryKeyLiveOrDead() {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 4000, 0);
            // Dead rows whose keys the index still holds (a delete by scan leaves them to VACUUM).
            table.deleteWhere(id -> id % 5 == 0);
            long relocationsBefore = table.storage.relocations();
            int pages = table.storage.pageCount();

            long freed = TableTruncation.truncate(List.of(table.table), NOT_CANCELLED);

            assertEquals(pages, freed);
            assertEquals(0, table.storage.pageCount());
            assertEquals(0, table.storage.rowCount());
            assertEquals(0, table.storage.deadRowCount());
            assertEquals(0, table.storage.retiredPageCount());
            assertEquals(0, table.allocator.pagesInUse());
            assertEquals(0, table.memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(0, table.table.uniqueConstraints().getFirst().index().size());
            // Ordered indexes built before see the row ids renumbered.
            assertEquals(relocationsBefore + 2, table.storage.relocations());
            assertTrue(table.contents().isEmpty());

            // Every key, of a live or a dead row, goes in again and names its new row.
            table.insert(0, 4000, 1);
            Map<Long, String> contents = table.contents();
            assertEquals(4000, contents.size());
            assertEquals(VacuumTestTable.name(5, 1) + "|16", contents.get(5L));
            Batch key = Batch.create(List.of(DataType.BIGINT), 1);
            Batch row = Batch.create(List.of(DataType.BIGINT), 1);
            for (long id = 0; id < 4000; id += 7) {
                ((LongVector) key.column(0)).set(0, id);
                key.setRowCount(1);
                long rowId = table.table.uniqueConstraints().getFirst().index().get(key, new int[] {0}, 0);
                table.storage.readSlots(RowIds.pageIndex(rowId), new int[] {RowIds.row(rowId)}, 1, new int[] {0}, row);
                assertEquals(id, ((LongVector) row.column(0)).get(0));
            }
        }
    }

    /**
     * The index of a table whose every row goes is replaced by an empty one of a new index's size:
     * its memory is back to what a new index holds, also when a growth was copying into a larger
     * map, and it stays the same object, which prepared point lookups and upserts hold.
     */
    @Test
    void replacesAGrownIndexByAFreshEmptyOne() {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            UniqueIndex index = table.table.uniqueConstraints().getFirst().index();
            long freshBytes = table.memory.allocatedBytes(MemoryTag.INDEXES);
            for (int round = 0; round < 3; round++) {
                // 12,000 keys pass the start fill (0.6) of a new index's 16,384 entries: a growth may be under way.
                table.insert(0, 12_000 + round * 20_000, round);
                assertTrue(table.memory.allocatedBytes(MemoryTag.INDEXES) > freshBytes);
                TableTruncation.truncate(List.of(table.table), NOT_CANCELLED);
                assertSame(index, table.table.uniqueConstraints().getFirst().index());
                assertEquals(0, index.size());
                assertEquals(freshBytes, index.reservedBytes());
                assertEquals(freshBytes, table.memory.allocatedBytes(MemoryTag.INDEXES));
                assertTrue(table.contents().isEmpty());
            }
            table.insert(0, 100, 9);
            assertEquals(100, index.size());
            assertEquals(VacuumTestTable.name(7, 9) + "|30", table.contents().get(7L));
        }
    }

    @Test
    void emptiesSeveralTablesAtOnce() {
        try (VacuumTestTable first = new VacuumTestTable(true, "a"); VacuumTestTable second = new VacuumTestTable(false, "b")) {
            first.insert(0, 1000, 0);
            second.insert(0, 1000, 0);
            TableTruncation.truncate(List.of(first.table, second.table), NOT_CANCELLED);
            assertEquals(0, first.storage.rowCount());
            assertEquals(0, second.storage.rowCount());
            assertEquals(0, first.allocator.pagesInUse());
            assertEquals(0, second.allocator.pagesInUse());
        }
    }

    /**
     * As PostgreSQL's ACCESS EXCLUSIVE lock waits for the scans running: an open scan reads its
     * snapshot to the end undisturbed, the truncate goes ahead once it is closed, and cancelling the
     * wait (57014) leaves the table as it was.
     */
    @Test
    void waitsForOpenScansAndCanBeCancelledWhileWaiting() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 3000, 0);
            Map<Long, String> expected = table.contents();
            try (ScanCursor scan = table.storage.openScan(1)) {
                AtomicBoolean cancel = new AtomicBoolean();
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                Thread waiting = Thread.ofPlatform().start(() -> {
                    try {
                        TableTruncation.truncate(List.of(table.table), () -> {
                            if (cancel.get()) {
                                throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
                            }
                        });
                    } catch (Throwable failure) {
                        outcome.set(failure);
                    }
                });
                Thread.sleep(100);
                assertTrue(waiting.isAlive(), "TRUNCATE went ahead with a scan open");
                cancel.set(true);
                waiting.join();
                assertEquals(SqlState.QUERY_CANCELED, ((ParallaxException) outcome.get()).state());
                assertEquals(expected, table.contents());

                Thread truncate = Thread.ofPlatform().start(() -> TableTruncation.truncate(List.of(table.table), NOT_CANCELLED));
                Thread.sleep(100);
                assertTrue(truncate.isAlive(), "TRUNCATE went ahead with a scan open");
                long count = 0;
                Batch batch = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
                long chunk;
                while ((chunk = scan.nextChunk()) != ScanCursor.EXHAUSTED) {
                    count += table.storage.readPage(ScanCursor.firstPage(chunk), new int[] {0}, batch, scan.snapshot(), null);
                }
                assertEquals(3000, count);
                scan.close();
                truncate.join();
            }
            assertEquals(0, table.storage.rowCount());
            assertEquals(0, table.allocator.pagesInUse());
        }
    }

    /**
     * Scans opening all the time while the table is emptied and loaded again, round after round:
     * each sees one load whole or the empty table, never part of one or freed pages, and none
     * starves the truncate; every page is back with the allocator but the last load's.
     */
    @Test
    void scansRunningAllTheTimeSeeAWholeLoadOrNone() throws Exception {
        int rows = 2000;
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, rows, 0);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            AtomicLong emptyScans = new AtomicLong();
            AtomicLong fullScans = new AtomicLong();
            List<Thread> scanners = new ArrayList<>();
            for (int thread = 0; thread < 3; thread++) {
                scanners.add(Thread.ofPlatform().start(() -> {
                    Batch batch = Batch.create(List.of(DataType.BIGINT, DataType.INTEGER), Batch.DEFAULT_CAPACITY);
                    while (!stop.get() && failure.get() == null) {
                        long count = 0;
                        long sum = 0;
                        long version = -1;
                        boolean mixed = false;
                        try (ScanCursor scan = table.storage.openScan(1)) {
                            long chunk;
                            while ((chunk = scan.nextChunk()) != ScanCursor.EXHAUSTED) {
                                int read = table.storage.readPage(ScanCursor.firstPage(chunk), new int[] {0, 2}, batch, scan.snapshot(), null);
                                for (int position = 0; position < read; position++) {
                                    long id = ((LongVector) batch.column(0)).get(position);
                                    // amount = id * 3 + version: every row of one scan is of one load.
                                    long rowVersion = ((LongVector) batch.column(1)).get(position) - id * 3;
                                    mixed |= version >= 0 && rowVersion != version;
                                    version = rowVersion;
                                    sum += id;
                                    count++;
                                }
                            }
                        }
                        if (count == 0) {
                            emptyScans.incrementAndGet();
                        } else if (count == rows && sum == (long) rows * (rows - 1) / 2 && !mixed) {
                            fullScans.incrementAndGet();
                        } else {
                            failure.compareAndSet(null, "scan saw " + count + " rows, sum " + sum + (mixed ? ", of two loads" : ""));
                        }
                    }
                }));
            }
            for (int round = 1; round <= 20; round++) {
                TableTruncation.truncate(List.of(table.table), NOT_CANCELLED);
                table.insert(0, rows, round);
            }
            stop.set(true);
            for (Thread scanner : scanners) {
                scanner.join();
            }
            assertNull(failure.get());
            assertTrue(fullScans.get() > 0, "no scan saw a load");
            assertEquals(0, table.storage.openSnapshotCount());
            assertEquals(0, table.storage.retiredPageCount());
            assertEquals(table.storage.pageCount(), table.allocator.pagesInUse());
            assertEquals(rows, table.table.uniqueConstraints().getFirst().index().size());
            assertEquals(VacuumTestTable.name(7, 20) + "|41", table.contents().get(7L));
        }
    }
}
