package dev.parallax.engine.vacuum;

import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.operator.scan.UniqueIndexLookup;
import dev.parallax.engine.storage.OpenSnapshot;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.SnapshotUse;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableVacuumTest {
    private static VacuumReport vacuum(VacuumTestTable table) {
        return TableVacuum.vacuum(table.table, false, VacuumProgress.NONE, () -> false);
    }

    @Test
    void reclaimsDeadRowsKeepsContentsAndGivesMemoryBack() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 3000, 0);
            int pagesBefore = table.storage.pageCount();
            long bytesBefore = table.memory.allocatedBytes(MemoryTag.PAGES);
            assertEquals(pagesBefore * VacuumTestTable.SLAB_BYTES, bytesBefore);
            // Every row of the first half, and every third row of the rest.
            long deleted = table.deleteWhere(id -> id < 1500 || id % 3 == 0);
            Map<Long, String> expected = table.contents();
            assertEquals(3000 - deleted, expected.size());
            assertEquals(deleted, table.storage.deadRowCount());

            VacuumReport report = vacuum(table);

            assertEquals(expected, table.contents());
            assertEquals(deleted, report.rowsRemoved());
            assertEquals(expected.size(), report.rowsRemaining());
            assertEquals(pagesBefore, report.pagesScanned());
            assertEquals(0, table.storage.deadRowCount());
            assertEquals(expected.size(), table.storage.rowCount());
            // The pages of the first half held dead rows only and went back to the allocator.
            assertTrue(report.pagesRemoved() >= pagesBefore / 2 - 1, "pages removed " + report.pagesRemoved());
            assertEquals(pagesBefore - report.pagesRemoved(), report.pagesRemaining());
            assertEquals(report.pagesRemaining(), table.allocator.pagesInUse());
            assertEquals(report.pagesRemaining() * VacuumTestTable.SLAB_BYTES, table.memory.allocatedBytes(MemoryTag.PAGES));
            assertEquals(0, table.storage.retiredPageCount());
            // A second vacuum finds nothing to do.
            VacuumReport again = vacuum(table);
            assertEquals(0, again.rowsRemoved());
            assertEquals(0, again.pagesRemoved());
            assertEquals(expected, table.contents());
        }
    }

    @Test
    void trailingEmptyPagesShortenTheTableAndAppendsContinue() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 2000, 0);
            int pagesBefore = table.storage.pageCount();
            table.deleteWhere(id -> id >= 500);
            vacuum(table);
            assertTrue(table.storage.pageCount() < pagesBefore / 2, "page count " + table.storage.pageCount());
            table.insert(10_000, 700, 1);
            Map<Long, String> contents = table.contents();
            assertEquals(1200, contents.size());
            assertEquals(VacuumTestTable.name(10_000, 1) + "|30001", contents.get(10_000L));
            assertEquals(VacuumTestTable.name(499, 0) + "|1497", contents.get(499L));
        }
    }

    @Test
    void allRowsDeletedFreesEveryPage() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 1000, 0);
            table.deleteWhere(id -> true);
            VacuumReport report = vacuum(table);
            assertEquals(1000, report.rowsRemoved());
            assertEquals(0, report.rowsRemaining());
            assertEquals(0, report.pagesRemaining());
            assertEquals(0, table.storage.pageCount());
            assertEquals(0, table.memory.allocatedBytes(MemoryTag.PAGES));
            table.insert(5, 1, 0);
            assertEquals(Map.of(5L, VacuumTestTable.name(5, 0) + "|15"), table.contents());
        }
    }

    @Test
    void compactedPagesFreeTheHeapSpaceOfDeadRows() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 400, 0);
            table.deleteWhere(id -> id % 2 == 0);
            int page = 0;
            int slotsBefore = table.storage.pageRowSlots(page);
            vacuum(table);
            // Every other row went: the page holds half its slots, packed at the front.
            assertEquals(slotsBefore - (slotsBefore + 1) / 2, table.storage.pageRowSlots(page));
            assertEquals(0, table.storage.pageDeletedRows(page));
            // The space freed on the last page takes new rows there before a new page is added.
            int pagesAfterVacuum = table.storage.pageCount();
            table.insert(1000, 5, 0);
            assertEquals(pagesAfterVacuum, table.storage.pageCount());
        }
    }

    @Test
    void uniqueIndexEntriesFollowMovedRowsAndDeadKeysGo() {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 2000, 0);
            // Dead rows whose keys are still in the index (deleted by slot, as a crashed statement might leave them).
            long deleted = table.deleteWhere(id -> id % 4 == 1);
            VacuumReport report = vacuum(table);
            assertEquals(deleted, report.rowsRemoved());
            assertTrue(report.indexEntriesMoved() > 0);
            var index = table.table.uniqueConstraints().getFirst().index();
            assertEquals(2000 - deleted, index.size());
            Batch key = Batch.create(List.of(DataType.BIGINT), 1);
            Batch row = Batch.create(VacuumTestTable.TYPES, 1);
            for (long id = 0; id < 2000; id++) {
                ((LongVector) key.column(0)).set(0, id);
                key.setRowCount(1);
                long rowId = index.get(key, new int[] {0}, 0);
                if (id % 4 == 1) {
                    assertEquals(RowIds.ABSENT, rowId, "key of a dead row " + id);
                    continue;
                }
                table.storage.readSlots(RowIds.pageIndex(rowId), new int[] {RowIds.row(rowId)}, 1, new int[] {0, 1}, row);
                assertEquals(id, ((LongVector) row.column(0)).get(0));
                assertEquals(VacuumTestTable.name(id, 0), ((BytesVector) row.column(1)).getString(0));
            }
            // The freed keys can be inserted again.
            table.insert(1, 1, 7);
            assertEquals(VacuumTestTable.name(1, 7) + "|10", table.contents().get(1L));
        }
    }

    @Test
    void uniqueIndexGrowingThroughDeletesAndVacuumsKeepsEveryKeyOnItsRow() {
        // The index starts at its default size; rounds of appends take it past its growth points
        // while deletes by key drop entries and vacuums repoint the entries of moved rows.
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            java.util.TreeSet<Long> live = new java.util.TreeSet<>();
            long next = 0;
            for (int round = 0; round < 6; round++) {
                table.insert(next, 6000, 0);
                for (long id = next; id < next + 6000; id++) {
                    live.add(id);
                }
                next += 6000;
                for (long id = round % 5; id < next; id += 5) {
                    if (live.remove(id)) {
                        assertTrue(table.deleteByKey(id));
                    }
                }
                vacuum(table);
            }
            var index = table.table.uniqueConstraints().getFirst().index();
            assertEquals(live.size(), index.size());
            assertEquals(live, table.contents().keySet());
            Batch key = Batch.create(List.of(DataType.BIGINT), 1);
            Batch row = Batch.create(VacuumTestTable.TYPES, 1);
            for (long id = 0; id < next; id++) {
                ((LongVector) key.column(0)).set(0, id);
                key.setRowCount(1);
                long rowId = index.get(key, new int[] {0}, 0);
                if (!live.contains(id)) {
                    assertEquals(RowIds.ABSENT, rowId, "key of a deleted row " + id);
                    continue;
                }
                table.storage.readSlots(RowIds.pageIndex(rowId), new int[] {RowIds.row(rowId)}, 1, new int[] {0}, row);
                assertEquals(id, ((LongVector) row.column(0)).get(0));
            }
        }
    }

    @Test
    void progressIsReportedPerPage() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 1000, 0);
            table.deleteWhere(id -> id % 2 == 0);
            int pages = table.storage.pageCount();
            List<Long> done = new ArrayList<>();
            TableVacuum.vacuum(table.table, false, (name, pagesDone, pagesTotal) -> {
                assertEquals("t", name);
                assertEquals(pages, pagesTotal);
                done.add(pagesDone);
            }, () -> false);
            assertEquals(0L, done.getFirst());
            assertEquals((long) pages, done.getLast());
            assertEquals(pages + 1, done.size());
            assertEquals(1, table.table.maintenance().vacuumCount());
            assertEquals(0, table.table.maintenance().autovacuumCount());
        }
    }

    /**
     * Scanners run while the table is vacuumed again and again: with no writer, every scan must see
     * exactly the live rows (count and sum of ids), never a dead one twice or a live one missed.
     */
    @Test
    void concurrentScansSeeEachLiveRowExactlyOnce() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 20_000, 0);
            table.deleteWhere(id -> id % 3 == 0);
            long[] expected = table.scanCountAndSum();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            List<Thread> scanners = new ArrayList<>();
            for (int thread = 0; thread < 3; thread++) {
                scanners.add(Thread.ofPlatform().start(() -> {
                    while (!stop.get() && failure.get() == null) {
                        long[] seen = table.scanCountAndSum();
                        if (seen[0] != expected[0] || seen[1] != expected[1]) {
                            failure.compareAndSet(null, "scan saw " + seen[0] + " rows, sum " + seen[1]);
                        }
                    }
                }));
            }
            // Delete a few more rows between vacuums, each time re-reading the expectation first.
            for (int round = 0; round < 5; round++) {
                vacuum(table);
            }
            stop.set(true);
            for (Thread scanner : scanners) {
                scanner.join();
            }
            assertNull(failure.get());
            assertEquals(expected[0], table.scanCountAndSum()[0]);
        }
    }

    /** Reads the pages {@code cursor} hands out (one per claim) until {@code pages} were read or it is exhausted; adds the ids seen. */
    private static void readClaims(VacuumTestTable table, ScanCursor cursor, int pages, List<Long> seen) {
        Batch batch = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
        for (int read = 0; read < pages; read++) {
            long chunk = cursor.nextChunk();
            if (chunk == ScanCursor.EXHAUSTED) {
                return;
            }
            assertEquals(1, ScanCursor.pageCount(chunk));
            int rows = table.storage.readPage(ScanCursor.firstPage(chunk), new int[] {0}, batch, cursor.snapshot(), null);
            for (int row = 0; row < rows; row++) {
                seen.add(((LongVector) batch.column(0)).get(row));
            }
        }
    }

    /**
     * PostgreSQL's xmin horizon: a scan is held open halfway while rows it may still see are
     * deleted and updated and new rows are appended (on its last, partly covered page too), and
     * VACUUM runs. VACUUM reclaims only the rows that died before the scan began; when the scan
     * goes on it sees exactly the rows of its snapshot, each once. Once the scan is closed, the rest
     * goes too.
     */
    @Test
    void scanHeldOpenDuringDeleteAndVacuumSeesExactlyItsSnapshot() {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            table.insert(0, 3000, 0);
            long deadBefore = table.deleteWhere(id -> id % 5 == 0);
            List<Long> snapshotIds = new ArrayList<>(table.contents().keySet());
            int snapshotPages = table.storage.pageCount();
            // The last page has room left: rows appended later land on it, behind the snapshot's slots.
            assertTrue(table.storage.pageRowSlots(snapshotPages - 1) < table.storage.pageSlotCapacity());
            List<Long> seen = new ArrayList<>();
            VacuumReport during;
            try (ScanCursor cursor = table.storage.openScan(1)) {
                assertEquals(1, table.storage.openSnapshotCount());
                readClaims(table, cursor, snapshotPages / 2, seen);

                long deadAfter = table.deleteWhere(id -> id % 5 == 1);
                for (long id = 2; id < 3000; id += 50) {
                    assertTrue(table.deleteByKey(id));
                    table.insert(id, 1, 1);
                    deadAfter++;
                }
                table.insert(10_000, 40, 0);
                during = vacuum(table);
                // Every dead row was examined: the old ones removed (but those on the snapshot's
                // last page, which must keep its slot numbers), the young ones kept.
                assertEquals(deadBefore + deadAfter, during.rowsRemoved() + during.deadRowsNotRemovable());
                assertTrue(during.rowsRemoved() > 0 && during.rowsRemoved() <= deadBefore, "removed " + during.rowsRemoved());
                assertTrue(during.deadRowsNotRemovable() >= deadAfter, "kept " + during.deadRowsNotRemovable());
                assertEquals(during.deadRowsNotRemovable(), table.storage.deadRowCount());

                readClaims(table, cursor, Integer.MAX_VALUE, seen);
            }
            assertEquals(0, table.storage.openSnapshotCount());
            List<Long> sorted = new ArrayList<>(seen);
            sorted.sort(null);
            assertEquals(snapshotIds, sorted);

            VacuumReport after = vacuum(table);
            assertEquals(during.deadRowsNotRemovable(), after.rowsRemoved());
            assertEquals(0, after.deadRowsNotRemovable());
            assertEquals(0, table.storage.deadRowCount());
            Map<Long, String> expected = new TreeMap<>();
            for (long id = 0; id < 3000; id++) {
                if (id % 5 == 0 || id % 5 == 1) {
                    continue;
                }
                long version = id % 50 == 2 ? 1 : 0;
                expected.put(id, VacuumTestTable.name(id, version) + "|" + (id * 3 + version));
            }
            for (long id = 10_000; id < 10_040; id++) {
                expected.put(id, VacuumTestTable.name(id, 0) + "|" + id * 3);
            }
            assertEquals(expected, table.contents());
        }
    }

    /**
     * A reader holding row ids (an ordered index scan) keeps every page from being compacted, even
     * rows that died before it began: its index may address any slot. A scan closed before VACUUM
     * holds nothing back.
     */
    @Test
    void rowIdReadersKeepEveryPageUncompacted() {
        try (VacuumTestTable table = new VacuumTestTable(false)) {
            table.insert(0, 2000, 0);
            try (ScanCursor closedEarly = table.storage.openScan(1)) {
                assertEquals(1, table.storage.openSnapshotCount());
            }
            table.deleteWhere(id -> id % 2 == 0);
            int pages = table.storage.pageCount();
            VacuumReport held;
            try (OpenSnapshot rowIds = table.storage.openSnapshot(SnapshotUse.ROW_IDS)) {
                held = vacuum(table);
                assertTrue(rowIds.isOpen());
            }
            assertEquals(0, held.rowsRemoved());
            assertEquals(1000, held.deadRowsNotRemovable());
            assertEquals(pages, table.storage.pageCount());
            assertEquals(1000, table.storage.deadRowCount());
            VacuumReport released = vacuum(table);
            assertEquals(1000, released.rowsRemoved());
            assertEquals(0, released.deadRowsNotRemovable());
            assertEquals(1000, table.contents().size());
        }
    }

    /**
     * Point lookups through the primary key race with VACUUM compacting the pages their rows are
     * on: a lookup that read a row id just before its row moved looks again, so it always returns
     * the key's own row.
     */
    @Test
    void pointLookupsDuringVacuumAlwaysReadTheirOwnRow() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            int keys = 4000;
            table.insert(0, keys, 0);
            UniqueIndexLookup lookup = new UniqueIndexLookup(table.table, table.table.uniqueConstraints().getFirst(), new int[] {0, 2});
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong lookups = new AtomicLong();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    UniqueIndexLookup own = new UniqueIndexLookup(table.table, table.table.uniqueConstraints().getFirst(), new int[] {0, 2});
                    long id = 1;
                    while (!stop.get()) {
                        // Odd keys are never touched.
                        Batch row = own.lookupLong(id);
                        if (row == null || ((LongVector) row.column(0)).get(0) != id || ((LongVector) row.column(1)).get(0) != id * 3) {
                            throw new AssertionError("key " + id + " read " + (row == null ? "nothing" : ((LongVector) row.column(0)).get(0)));
                        }
                        lookups.incrementAndGet();
                        id = (id + 2) % keys;
                    }
                } catch (Throwable error) {
                    failure.compareAndSet(null, error);
                }
            });
            for (int round = 0; round < 30 && failure.get() == null; round++) {
                // Even keys die and come back: every page has dead rows, every compaction moves odd ones.
                long remainder = round % 4 * 2;
                for (long id = remainder; id < keys; id += 8) {
                    assertTrue(table.deleteByKey(id));
                }
                vacuum(table);
                for (long id = remainder; id < keys; id += 8) {
                    table.insert(id, 1, 0);
                }
            }
            stop.set(true);
            reader.join();
            assertNull(failure.get(), () -> String.valueOf(failure.get()));
            assertTrue(lookups.get() > 0);
            assertEquals(keys, table.contents().size());
            assertEquals(5, ((LongVector) lookup.lookupLong(5).column(0)).get(0));
        }
    }

    /** One scan's rows by id; ids below {@code updatedBelow} and past the original keys may appear twice. */
    private static Map<Long, String> contentsAllowingUpdatedTwice(VacuumTestTable table, long stableFrom) {
        Map<Long, String> rows = new TreeMap<>();
        Batch batch = Batch.create(VacuumTestTable.TYPES, Batch.DEFAULT_CAPACITY);
        int pages = table.storage.pageCount();
        for (int page = 0; page < pages; page++) {
            int count = table.storage.readPage(page, new int[] {0, 1, 2}, batch);
            for (int row = 0; row < count; row++) {
                long id = ((LongVector) batch.column(0)).get(row);
                String value = ((BytesVector) batch.column(1)).getString(row) + "|" + ((LongVector) batch.column(2)).get(row);
                if (rows.put(id, value) != null && id >= stableFrom && id < 2 * stableFrom) {
                    throw new AssertionError("untouched key " + id + " seen twice");
                }
            }
        }
        return rows;
    }

    /**
     * Upserts (update = delete the key's row and insert the new version, through the primary key,
     * row ids pinned), inserts of new keys and scans run while the table is vacuumed repeatedly: the
     * final contents are exactly the last version of every key, and every scan saw each key that no
     * writer touches exactly once. (An updated key may be seen twice or not at all by a scan that
     * overlaps the update: an update is a delete and an insert, and there are no snapshots yet.)
     */
    @Test
    void concurrentUpsertsAndScansDuringVacuumLoseNothing() throws Exception {
        try (VacuumTestTable table = new VacuumTestTable(true)) {
            int keys = 1200;
            table.insert(0, keys, 0);
            int writers = 3;
            int updatesPerWriter = 400;
            Map<Long, Long> finalVersions = new ConcurrentHashMap<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(writers);
            List<Thread> threads = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                int writerNumber = writer;
                threads.add(Thread.ofPlatform().start(() -> {
                    started.countDown();
                    try {
                        // Each writer owns the keys congruent to its number, so versions are deterministic.
                        for (int update = 0; update < updatesPerWriter; update++) {
                            long id = (update * 7L % (keys / 2 / writers)) * writers + writerNumber;
                            long version = update + 1;
                            assertTrue(table.deleteByKey(id), "key " + id + " missing");
                            table.insert(id, 1, version);
                            finalVersions.put(id, version);
                            // New keys too, past the original ones.
                            if (update % 10 == 0) {
                                long fresh = keys + (long) writerNumber * updatesPerWriter + update;
                                table.insert(fresh, 1, 0);
                                finalVersions.put(fresh, 0L);
                            }
                        }
                    } catch (Throwable error) {
                        failure.compareAndSet(null, error);
                    }
                }));
            }
            Thread scanner = Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        Map<Long, String> seen = contentsAllowingUpdatedTwice(table, keys / 2);
                        for (long id = keys / 2; id < keys; id++) {
                            if (!(VacuumTestTable.name(id, 0) + "|" + id * 3).equals(seen.get(id))) {
                                throw new AssertionError("untouched key " + id + " read as " + seen.get(id));
                            }
                        }
                    }
                } catch (Throwable error) {
                    failure.compareAndSet(null, error);
                }
            });
            started.await();
            int vacuums = 0;
            while (threads.stream().anyMatch(Thread::isAlive)) {
                vacuum(table);
                vacuums++;
            }
            for (Thread thread : threads) {
                thread.join();
            }
            vacuum(table);
            stop.set(true);
            scanner.join();
            assertNull(failure.get(), () -> String.valueOf(failure.get()));
            assertTrue(vacuums > 0);

            Map<Long, String> expected = new TreeMap<>();
            for (long id = 0; id < keys; id++) {
                long version = finalVersions.getOrDefault(id, 0L);
                expected.put(id, VacuumTestTable.name(id, version) + "|" + (id * 3 + version));
            }
            for (Map.Entry<Long, Long> entry : finalVersions.entrySet()) {
                long id = entry.getKey();
                expected.put(id, VacuumTestTable.name(id, entry.getValue()) + "|" + (id * 3 + entry.getValue()));
            }
            assertEquals(expected, table.contents());
            assertEquals(0, table.storage.deadRowCount());
            assertEquals(expected.size(), table.table.uniqueConstraints().getFirst().index().size());
            // Every key reaches its row through the index after all the moves.
            for (long id : expected.keySet()) {
                assertTrue(table.deleteByKey(id), "key " + id);
            }
            assertEquals(0, table.storage.rowCount());
        }
    }
}
