package dev.parallax.engine.vacuum;

import dev.parallax.engine.index.RowIds;
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
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FullTableVacuumTest {
    private static VacuumReport vacuumFull(VacuumTestTable table) {
        return FullTableVacuum.vacuum(table.table, VacuumProgress.NONE, () -> false);
    }

    /** Pages a fresh table needs for {@code contents} (id -> "name|amount" of version 0), loaded in id order. */
    private static int freshLoadPages(Map<Long, String> contents) {
        try (VacuumTestTable fresh = new VacuumTestTable(false)) {
            fresh.insertIds(new ArrayList<>(contents.keySet()));
            assertEquals(contents, fresh.contents());
            return fresh.storage.pageCount();
        }
    }

    @Test
    void rewritesTheTableAsCompactlyAsAFreshLoadOfItsRows() {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 4000, 0);
            // Scattered deletes: plain VACUUM would leave every page partly filled.
            long deleted = table.deleteWhere(id -> id % 3 == 0 || id % 7 == 0);
            Map<Long, String> expected = table.contents();
            int pagesBefore = table.storage.pageCount();

            VacuumReport report = vacuumFull(table);

            assertEquals(expected, table.contents());
            int freshPages = freshLoadPages(expected);
            assertEquals(freshPages, table.storage.pageCount());
            assertTrue(freshPages < pagesBefore * 2 / 3, freshPages + " of " + pagesBefore);
            assertEquals(pagesBefore, report.pagesScanned());
            assertEquals(freshPages, report.pagesRemaining());
            assertEquals(pagesBefore - freshPages, report.pagesRemoved());
            assertEquals(deleted, report.rowsRemoved());
            assertEquals(expected.size(), report.rowsRemaining());
            assertEquals(0, table.storage.deadRowCount());
            // The old pages went back to the allocator: only the new ones are held.
            assertEquals(freshPages, table.allocator.pagesInUse());
            assertEquals(freshPages * VacuumTestTable.SLAB_BYTES, table.memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(0, table.storage.retiredPageCount());
            assertEquals(1, table.table.maintenance().vacuumCount());
            // Every key reaches its row at its new id; the keys of dead rows are gone.
            var index = table.table.uniqueConstraints().getFirst().index();
            assertEquals(expected.size(), index.size());
            assertTrue(report.indexEntriesMoved() > 0);
            Batch key = Batch.create(List.of(DataType.BIGINT), 1);
            Batch row = Batch.create(VacuumTestTable.TYPES, 1);
            for (long id = 0; id < 4000; id++) {
                ((LongVector) key.column(0)).set(0, id);
                key.setRowCount(1);
                long rowId = index.get(key, new int[] {0}, 0);
                if (!expected.containsKey(id)) {
                    assertEquals(RowIds.ABSENT, rowId, "key of a dead row " + id);
                    continue;
                }
                table.storage.readSlots(RowIds.pageIndex(rowId), new int[] {RowIds.row(rowId)}, 1, new int[] {0}, row);
                assertEquals(id, ((LongVector) row.column(0)).get(0));
            }
            // Appends continue after the rewritten rows; freed keys can be used again.
            table.insert(0, 1, 5);
            assertEquals(VacuumTestTable.name(0, 5) + "|5", table.contents().get(0L));
        }
    }

    @Test
    void anEmptiedTableKeepsNoPage() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 1000, 0);
            table.deleteWhere(id -> true);
            VacuumReport report = vacuumFull(table);
            assertEquals(1000, report.rowsRemoved());
            assertEquals(0, report.pagesRemaining());
            assertEquals(0, table.storage.pageCount());
            assertEquals(0, table.memory.allocatedBytes(MemoryTag.PAGES));
            table.insert(7, 2, 0);
            assertEquals(2, table.contents().size());
        }
    }

    /**
     * Rows move between pages, so VACUUM FULL waits for the scan open on the table (which reads its
     * snapshot to the end undisturbed) and rewrites once it is closed; cancelling the wait leaves
     * the table as it was.
     */
    @Test
    void waitsForOpenScansAndCanBeCancelledWhileWaiting() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 3000, 0);
            table.deleteWhere(id -> id % 2 == 0);
            int pagesBefore = table.storage.pageCount();
            Map<Long, String> expected = table.contents();
            try (ScanCursor scan = table.storage.openScan(1)) {
                AtomicBoolean cancel = new AtomicBoolean();
                AtomicReference<VacuumReport> cancelled = new AtomicReference<>();
                Thread waiting = Thread.ofPlatform().start(() ->
                        cancelled.set(FullTableVacuum.vacuum(table.table, VacuumProgress.NONE, cancel::get)));
                Thread.sleep(100);
                assertTrue(waiting.isAlive(), "VACUUM FULL went ahead with a scan open");
                cancel.set(true);
                waiting.join();
                assertEquals(0, cancelled.get().rowsRemoved());
                assertEquals(pagesBefore, table.storage.pageCount());
                assertEquals(0, table.table.maintenance().vacuumCount());

                AtomicReference<VacuumReport> done = new AtomicReference<>();
                Thread full = Thread.ofPlatform().start(() -> done.set(vacuumFull(table)));
                Thread.sleep(100);
                assertTrue(full.isAlive(), "VACUUM FULL went ahead with a scan open");
                List<Long> seen = new ArrayList<>();
                Batch batch = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
                long chunk;
                while ((chunk = scan.nextChunk()) != ScanCursor.EXHAUSTED) {
                    int rows = table.storage.readPage(ScanCursor.firstPage(chunk), new int[] {0}, batch, scan.snapshot(), null);
                    for (int position = 0; position < rows; position++) {
                        seen.add(((LongVector) batch.column(0)).get(position));
                    }
                }
                assertEquals(new ArrayList<>(expected.keySet()), seen);
                scan.close();
                full.join();
                assertEquals(1500, done.get().rowsRemoved());
            }
            assertEquals(expected, table.contents());
            assertTrue(table.storage.pageCount() < pagesBefore);
        }
    }

    /** Keys from here on come and go during a test; scanners leave them out of their figures. */
    private static final long CHURN = 1_000_000;

    /**
     * Scans open and close all the time while VACUUM FULL runs again and again (rows inserted and
     * deleted between the rounds): each scan sees exactly the stable rows (count and sum), before
     * or after a rewrite, never during one, and the rewrites are not starved.
     */
    @Test
    void scansRunningAllTheTimeSeeEachRowOnceAndDoNotStarveIt() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 6000, 0);
            table.deleteWhere(id -> id % 3 == 0);
            long[] expected = table.scanCountAndSum();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            List<Thread> scanners = new ArrayList<>();
            for (int thread = 0; thread < 3; thread++) {
                scanners.add(Thread.ofPlatform().start(() -> {
                    Batch batch = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
                    while (!stop.get() && failure.get() == null) {
                        long count = 0;
                        long sum = 0;
                        try (ScanCursor scan = table.storage.openScan(1)) {
                            long chunk;
                            while ((chunk = scan.nextChunk()) != ScanCursor.EXHAUSTED) {
                                int rows = table.storage.readPage(ScanCursor.firstPage(chunk), new int[] {0}, batch, scan.snapshot(), null);
                                for (int position = 0; position < rows; position++) {
                                    long id = ((LongVector) batch.column(0)).get(position);
                                    if (id < CHURN) {
                                        sum += id;
                                        count++;
                                    }
                                }
                            }
                        }
                        if (count != expected[0] || sum != expected[1]) {
                            failure.compareAndSet(null, "scan saw " + count + " rows, sum " + sum);
                        }
                    }
                }));
            }
            for (int round = 0; round < 5; round++) {
                vacuumFull(table);
                // Dead rows for the next round, on keys the scanners leave out of their figures.
                table.insert(CHURN + round * 1000L, 1000, 0);
                for (long id = CHURN + round * 1000L; id < CHURN + round * 1000L + 1000; id += 2) {
                    assertTrue(table.deleteByKey(id));
                }
            }
            stop.set(true);
            for (Thread scanner : scanners) {
                scanner.join();
            }
            assertNull(failure.get());
            assertEquals(5, table.table.maintenance().vacuumCount());
            assertFalse(table.contents().isEmpty());
            assertEquals(0, table.storage.openSnapshotCount());
        }
    }
}
