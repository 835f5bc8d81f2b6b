package dev.parallax.engine.storage;

import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.NativePage;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dead-slot bitmap of {@link PageLayout}: which slots are dead, and since when, is checked
 * against a model after every step of a seeded mix of deletes, updates, abandoned and refused
 * steps, snapshots, VACUUM (page compactions, some kept from removing rows an open snapshot may
 * still see) and VACUUM FULL; and under concurrent writers, readers and VACUUM. Pages that a
 * previous owner filled with ones serve the compacted copies, so a live slot's stamp holds garbage:
 * only the bitmap may decide liveness.
 */
class DeadSlotBitmapTest {
    /** (key, serial, note): serial identifies one row version; an update makes a new serial of the same key. */
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.BIGINT, DataType.TEXT);
    private static final int[] ALL_COLUMNS = {0, 1, 2};
    private static final int KEYS = 1500;

    @Test
    void deadBitsFollowEveryStepAndVacuum() {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 16384, 16)) {
            PageAllocator.EmptySlabHold hold = fillWithOnesAndFree(allocator, 48);
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            assertTrue(storage.layout().rowsPerPage() > 128, "several bitmap words per page: " + storage.layout().rowsPerPage());
            Model model = new Model();
            Batch rows = Batch.create(TYPES, KEYS);
            for (int key = 0; key < KEYS; key++) {
                setRow(rows, key, key, model.newSerial(key));
            }
            rows.setRowCount(KEYS);
            storage.append(rows);
            model.verify(storage);

            Random random = new Random(20261122);
            List<SnapshotModel> snapshots = new ArrayList<>();
            for (int step = 0; step < 160; step++) {
                int choice = random.nextInt(10);
                switch (choice) {
                    case 0, 1 -> {
                        // Single-row deletes.
                        for (int count = random.nextInt(20); count > 0; count--) {
                            long rowId = model.rowIdOfKey(storage, random.nextInt(KEYS));
                            if (rowId >= 0) {
                                assertTrue(storage.delete(RowIds.pageIndex(rowId), RowIds.row(rowId)));
                                model.died(storage, rowId);
                            }
                        }
                    }
                    case 2, 3, 4 -> update(storage, model, random, false);
                    case 5 -> update(storage, model, random, true);
                    case 6 -> {
                        // A step naming a row that is dead already changes nothing.
                        long dead = model.anyDeadRowId(storage);
                        long live = model.rowIdOfKey(storage, random.nextInt(KEYS));
                        if (dead >= 0 && live >= 0) {
                            long sequence = storage.changeSequence();
                            assertFalse(storage.modify(List.of(), new long[] {live, dead}, 2, null));
                            assertEquals(sequence, storage.changeSequence());
                        }
                    }
                    case 7 -> {
                        if (snapshots.size() < 3) {
                            snapshots.add(new SnapshotModel(storage.openSnapshot(SnapshotUse.SCAN), model.liveSerials()));
                        } else {
                            snapshots.removeFirst().snapshot.close();
                        }
                    }
                    case 8 -> {
                        vacuum(storage, model, random.nextBoolean());
                        storage.reclaimRetiredPages();
                    }
                    case 9 -> {
                        if (snapshots.isEmpty()) {
                            TableRewrite rewrite = storage.rewriteCompactly(Batch.create(TYPES, 16), null, 0, pages -> {
                            }, () -> false);
                            assertNotNull(rewrite);
                            storage.reclaimRetiredPages();
                            model.forgetDead();
                        } else {
                            snapshots.removeLast().snapshot.close();
                        }
                    }
                    default -> throw new IllegalStateException();
                }
                model.verify(storage);
                for (SnapshotModel snapshot : snapshots) {
                    assertSameVersions(snapshot.visible, visibleSerials(storage, snapshot.snapshot.snapshot()), "step " + step);
                }
            }
            for (SnapshotModel snapshot : snapshots) {
                snapshot.snapshot.close();
            }
            vacuum(storage, model, false);
            storage.reclaimRetiredPages();
            model.verify(storage);
            assertEquals(0, storage.deadRowCount());
            storage.close();
            hold.close();
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    /** Names the versions missing and the versions too many, not the whole sets. */
    private static void assertSameVersions(Set<Long> expected, Set<Long> actual, String what) {
        Set<Long> missing = new HashSet<>(expected);
        missing.removeAll(actual);
        Set<Long> extra = new HashSet<>(actual);
        extra.removeAll(expected);
        assertTrue(missing.isEmpty() && extra.isEmpty(), what + ": missing " + missing + ", not expected " + extra);
    }

    /** Updates some live keys in one step; {@code abandon}: the guard throws after the new versions were placed. */
    private static void update(PagedTableStorage storage, Model model, Random random, boolean abandon) {
        int count = 1 + random.nextInt(40);
        Set<Long> dying = new HashSet<>();
        for (int attempt = 0; attempt < count; attempt++) {
            long rowId = model.rowIdOfKey(storage, random.nextInt(KEYS));
            if (rowId >= 0) {
                dying.add(rowId);
            }
        }
        if (dying.isEmpty()) {
            return;
        }
        long[] dead = dying.stream().mapToLong(Long::longValue).toArray();
        Batch rows = Batch.create(TYPES, dead.length);
        long[] newSerials = new long[dead.length];
        Map<Long, Long> serialOfRowId = model.serialsByRowId(storage);
        for (int index = 0; index < dead.length; index++) {
            long key = model.keyOf(serialOfRowId.get(dead[index]));
            newSerials[index] = abandon ? -1 : model.newSerial(key);
            setRow(rows, index, key, abandon ? 1_000_000 + index : newSerials[index]);
        }
        rows.setRowCount(dead.length);
        if (abandon) {
            long sequence = storage.changeSequence();
            assertThrows(IllegalStateException.class, () -> storage.modify(List.of(rows), dead, dead.length, (batches, rowIds) -> {
                throw new IllegalStateException("rolled back");
            }));
            assertEquals(sequence, storage.changeSequence());
            return;
        }
        assertTrue(storage.modify(List.of(rows), dead, dead.length, null));
        for (long rowId : dead) {
            model.died(storage, rowId, serialOfRowId.get(rowId));
        }
    }

    /** Compacts every page, through prepare and publish or at once. */
    private static void vacuum(PagedTableStorage storage, Model model, boolean prepared) {
        CompactionBuffers buffers = storage.compactionBuffers();
        for (int page = 0; page < storage.pageCount(); page++) {
            if (prepared) {
                storage.publishCompaction(storage.prepareCompaction(page, buffers), buffers, null);
            } else {
                storage.compactPage(page, buffers, null);
            }
        }
        model.forgetRemoved(storage);
    }

    /** The serials a scan with {@code snapshot} returns, checked to be distinct, and the same through {@link TableStorage#retainVisible}. */
    private static Set<Long> visibleSerials(PagedTableStorage storage, ScanSnapshot snapshot) {
        Set<Long> seen = new HashSet<>();
        Batch target = Batch.create(TYPES, 16);
        List<Long> rowIds = new ArrayList<>();
        for (int page = 0; page < snapshot.pageCount(); page++) {
            int[] slots = new int[storage.pageSlotCapacity()];
            int rows = storage.readPage(page, ALL_COLUMNS, target, snapshot, slots);
            for (int position = 0; position < rows; position++) {
                assertTrue(seen.add(((LongVector) target.column(1)).get(position)), "a row seen twice");
                rowIds.add(RowIds.pack(page, slots[position]));
            }
        }
        // Every published slot of the covered pages, dead ones included: retainVisible keeps the same rows.
        List<Long> all = new ArrayList<>();
        for (int page = 0; page < Math.min(snapshot.pageCount(), storage.pageCount()); page++) {
            if (storage.isHole(page)) {
                continue;
            }
            for (int slot = 0; slot < storage.pageRowSlots(page); slot++) {
                all.add(RowIds.pack(page, slot));
            }
        }
        long[] candidates = all.stream().mapToLong(Long::longValue).toArray();
        int kept = storage.retainVisible(candidates, 0, candidates.length, snapshot);
        List<Long> retained = new ArrayList<>();
        for (int index = 0; index < kept; index++) {
            retained.add(candidates[index]);
        }
        assertEquals(rowIds, retained);
        return seen;
    }

    @Test
    void concurrentWritersReadersAndVacuumKeepEveryKeyOnceInEverySnapshot() throws Exception {
        MemoryManager memory = new MemoryManager(1L << 30);
        try (PageAllocator allocator = new PageAllocator(memory, 16384, 16)) {
            PageAllocator.EmptySlabHold hold = fillWithOnesAndFree(allocator, 48);
            PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
            // Where each key's live version is: kept by the writer's guard and the compaction
            // listener, both under the storage's write lock.
            long[] rowIdOfKey = new long[KEYS];
            Map<Long, Integer> keyOfRowId = new HashMap<>();
            Batch first = Batch.create(TYPES, KEYS);
            for (int key = 0; key < KEYS; key++) {
                setRow(first, key, key, key);
            }
            first.setRowCount(KEYS);
            storage.appendAll(List.of(first), (batches, rowIds) -> {
                for (int key = 0; key < KEYS; key++) {
                    rowIdOfKey[key] = rowIds[0][key];
                    keyOfRowId.put(rowIds[0][key], key);
                }
            });
            PageCompactionListener repoint = (pageIndex, keptSlots, keptCount, removedSlots, removedCount) -> {
                for (int removed = 0; removed < removedCount; removed++) {
                    keyOfRowId.remove(RowIds.pack(pageIndex, removedSlots[removed]));
                }
                Map<Long, Integer> moved = new HashMap<>();
                for (int kept = 0; kept < keptCount; kept++) {
                    Integer key = keyOfRowId.remove(RowIds.pack(pageIndex, keptSlots[kept]));
                    if (key != null) {
                        moved.put(RowIds.pack(pageIndex, kept), key);
                        if (rowIdOfKey[key] == RowIds.pack(pageIndex, keptSlots[kept])) {
                            rowIdOfKey[key] = RowIds.pack(pageIndex, kept);
                        }
                    }
                }
                keyOfRowId.putAll(moved);
            };
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int reader = 0; reader < 2; reader++) {
                threads.add(new Thread(() -> {
                    try {
                        while (!done.get()) {
                            try (OpenSnapshot open = storage.openSnapshot(SnapshotUse.SCAN)) {
                                assertEquals(KEYS, keysSeenOnce(storage, open.snapshot()));
                            }
                        }
                    } catch (Throwable error) {
                        failure.compareAndSet(null, error);
                    }
                }));
            }
            threads.add(new Thread(() -> {
                try {
                    CompactionBuffers buffers = storage.compactionBuffers();
                    while (!done.get()) {
                        for (int page = 0; page < storage.pageCount(); page++) {
                            storage.publishCompaction(storage.prepareCompaction(page, buffers), buffers, repoint);
                        }
                        storage.reclaimRetiredPages();
                    }
                } catch (Throwable error) {
                    failure.compareAndSet(null, error);
                }
            }));
            threads.forEach(Thread::start);
            Random random = new Random(7);
            long serial = KEYS;
            try {
                for (int step = 0; step < 1500 && failure.get() == null; step++) {
                    int count = 1 + random.nextInt(12);
                    int firstKey = random.nextInt(KEYS - count);
                    boolean abandon = step % 9 == 4;
                    Batch rows = Batch.create(TYPES, count);
                    for (int index = 0; index < count; index++) {
                        setRow(rows, index, firstKey + index, serial++);
                    }
                    rows.setRowCount(count);
                    storage.exclusively(() -> {
                        long[] dead = new long[count];
                        for (int index = 0; index < count; index++) {
                            dead[index] = rowIdOfKey[firstKey + index];
                        }
                        AppendGuard guard = (batches, rowIds) -> {
                            if (abandon) {
                                throw new IllegalStateException("rolled back");
                            }
                            for (int index = 0; index < count; index++) {
                                rowIdOfKey[firstKey + index] = rowIds[0][index];
                                keyOfRowId.put(rowIds[0][index], firstKey + index);
                            }
                        };
                        try {
                            assertTrue(storage.modify(List.of(rows), dead, count, guard));
                        } catch (IllegalStateException rolledBack) {
                            assertTrue(abandon);
                        }
                        return null;
                    });
                }
            } finally {
                done.set(true);
                for (Thread thread : threads) {
                    thread.join();
                }
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            try (OpenSnapshot open = storage.openSnapshot(SnapshotUse.SCAN)) {
                assertEquals(KEYS, keysSeenOnce(storage, open.snapshot()));
            }
            CompactionBuffers buffers = storage.compactionBuffers();
            for (int page = 0; page < storage.pageCount(); page++) {
                storage.compactPage(page, buffers, repoint);
            }
            storage.reclaimRetiredPages();
            assertEquals(0, storage.deadRowCount());
            assertEquals(KEYS, storage.rowCount());
            storage.close();
            hold.close();
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    /** Scans with {@code snapshot}, failing on a key seen twice; returns the keys seen. */
    private static int keysSeenOnce(PagedTableStorage storage, ScanSnapshot snapshot) {
        Set<Long> keys = new HashSet<>();
        Batch target = Batch.create(TYPES, 16);
        for (int page = 0; page < snapshot.pageCount(); page++) {
            int rows = storage.readPage(page, ALL_COLUMNS, target, snapshot, null);
            for (int position = 0; position < rows; position++) {
                long key = ((LongVector) target.column(0)).get(position);
                assertTrue(keys.add(key), "key " + key + " seen twice");
                assertEquals("note " + key, ((BytesVector) target.column(2)).getString(position));
            }
        }
        return keys.size();
    }

    /**
     * Fills {@code pages} pages with ones and frees them into slabs a hold keeps: compacted copies,
     * which take pages without zeroing them, then start on a previous owner's bytes.
     */
    private static PageAllocator.EmptySlabHold fillWithOnesAndFree(PageAllocator allocator, int pages) {
        PageAllocator.EmptySlabHold hold = allocator.holdEmptySlabs();
        List<NativePage> taken = new ArrayList<>();
        for (int index = 0; index < pages; index++) {
            NativePage page = allocator.allocate();
            page.segment().fill((byte) -1);
            taken.add(page);
        }
        taken.forEach(allocator::free);
        return hold;
    }

    private static void setRow(Batch batch, int position, long key, long serial) {
        ((LongVector) batch.column(0)).set(position, key);
        ((LongVector) batch.column(1)).set(position, serial);
        ((BytesVector) batch.column(2)).set(position, ("note " + key).getBytes(StandardCharsets.UTF_8));
    }

    private record SnapshotModel(OpenSnapshot snapshot, Set<Long> visible) {
    }

    /** What every row version should be: its key, and the change sequence it died at (0: live). */
    private static final class Model {
        private final Map<Long, Long> keyOfSerial = new HashMap<>();
        private final Map<Long, Long> deathOfSerial = new HashMap<>();
        private final Map<Long, Long> liveSerialOfKey = new HashMap<>();
        private long nextSerial;

        long newSerial(long key) {
            long serial = nextSerial++;
            keyOfSerial.put(serial, key);
            deathOfSerial.put(serial, 0L);
            liveSerialOfKey.put(key, serial);
            return serial;
        }

        long keyOf(long serial) {
            return keyOfSerial.get(serial);
        }

        void died(PagedTableStorage storage, long rowId) {
            died(storage, rowId, serialsByRowId(storage).get(rowId));
        }

        /** The row died in the publish that just ended: its stamp is the storage's change sequence now. */
        void died(PagedTableStorage storage, long rowId, long serial) {
            assertEquals(0L, deathOfSerial.get(serial), "row " + rowId + " was live");
            deathOfSerial.put(serial, storage.changeSequence());
            long key = keyOfSerial.get(serial);
            if (liveSerialOfKey.get(key) == serial) {
                liveSerialOfKey.remove(key);
            }
        }

        Set<Long> liveSerials() {
            Set<Long> live = new HashSet<>();
            deathOfSerial.forEach((serial, death) -> {
                if (death == 0) {
                    live.add(serial);
                }
            });
            return live;
        }

        /** The row id of {@code key}'s live version, or -1 when the key has none. */
        long rowIdOfKey(PagedTableStorage storage, long key) {
            Long serial = liveSerialOfKey.get(key);
            if (serial == null) {
                return -1;
            }
            for (Map.Entry<Long, Long> entry : serialsByRowId(storage).entrySet()) {
                if (entry.getValue().equals(serial)) {
                    return entry.getKey();
                }
            }
            throw new AssertionError("key " + key + " has no row");
        }

        long anyDeadRowId(PagedTableStorage storage) {
            for (Map.Entry<Long, Long> entry : serialsByRowId(storage).entrySet()) {
                if (deathOfSerial.get(entry.getValue()) != 0) {
                    return entry.getKey();
                }
            }
            return -1;
        }

        /** Every published slot, dead ones included, with the serial it holds. */
        Map<Long, Long> serialsByRowId(PagedTableStorage storage) {
            Map<Long, Long> serials = new HashMap<>();
            Batch target = Batch.create(TYPES, 16);
            for (int page = 0; page < storage.pageCount(); page++) {
                if (storage.isHole(page)) {
                    continue;
                }
                int slots = storage.pageRowSlots(page);
                int[] all = new int[slots];
                for (int slot = 0; slot < slots; slot++) {
                    all[slot] = slot;
                }
                storage.readSlots(page, all, slots, new int[] {1}, target);
                for (int slot = 0; slot < slots; slot++) {
                    serials.put(RowIds.pack(page, slot), ((LongVector) target.column(0)).get(slot));
                }
            }
            return serials;
        }

        /** After a compaction: dead versions no longer on any page are gone for good. */
        void forgetRemoved(PagedTableStorage storage) {
            Set<Long> present = new HashSet<>(serialsByRowId(storage).values());
            deathOfSerial.keySet().removeIf(serial -> !present.contains(serial));
        }

        /** After VACUUM FULL: every dead version is gone. */
        void forgetDead() {
            deathOfSerial.values().removeIf(death -> death != 0);
        }

        /**
         * Every slot's dead bit and death sequence, each page's and the table's dead counts, and a
         * plain read (no snapshot) returning exactly the live versions, each once.
         */
        void verify(PagedTableStorage storage) {
            Map<Long, Long> serials = serialsByRowId(storage);
            Set<Long> present = new HashSet<>();
            long dead = 0;
            for (Map.Entry<Long, Long> entry : serials.entrySet()) {
                long rowId = entry.getKey();
                long serial = entry.getValue();
                assertTrue(present.add(serial), "version " + serial + " on two slots");
                Long death = deathOfSerial.get(serial);
                assertNotNull(death, "version " + serial + " was reclaimed or never written");
                int page = RowIds.pageIndex(rowId);
                int slot = RowIds.row(rowId);
                assertEquals(death != 0, storage.isDeleted(page, slot), "version " + serial);
                assertEquals((long) death, storage.deathSequence(page, slot), "version " + serial);
                dead += death != 0 ? 1 : 0;
            }
            assertEquals(deathOfSerial.keySet(), present, "every version not reclaimed is on a page");
            assertEquals(dead, storage.deadRowCount());
            long pageDead = 0;
            for (int page = 0; page < storage.pageCount(); page++) {
                pageDead += storage.pageDeletedRows(page);
            }
            assertEquals(dead, pageDead);
            Set<Long> read = new HashSet<>();
            Batch target = Batch.create(TYPES, 16);
            for (int page = 0; page < storage.pageCount(); page++) {
                int rows = storage.readPage(page, ALL_COLUMNS, target);
                for (int position = 0; position < rows; position++) {
                    long serial = ((LongVector) target.column(1)).get(position);
                    assertTrue(read.add(serial));
                    assertEquals("note " + keyOfSerial.get(serial), ((BytesVector) target.column(2)).getString(position));
                }
            }
            assertSameVersions(liveSerials(), read, "a plain read");
            assertEquals(read.size(), storage.rowCount());
        }
    }
}
