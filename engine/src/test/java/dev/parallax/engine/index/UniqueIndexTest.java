package dev.parallax.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UniqueIndexTest {
    private static final int[] FIRST = {0};
    private static final int[] FIRST_TWO = {0, 1};

    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final List<UniqueIndex> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(UniqueIndex::close);
        assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES));
    }

    private UniqueIndex open(IndexDefinition definition) {
        UniqueIndex index = UniqueIndexes.create(definition, memory);
        opened.add(index);
        return index;
    }

    private LongKeyIndex openLong(long initialEntries) {
        return (LongKeyIndex) open(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.INTEGER))
                .withInitialEntries(initialEntries));
    }

    private static Batch longs(DataType type, Long... values) {
        Batch batch = Batch.create(List.of(type), values.length);
        LongVector column = (LongVector) batch.column(0);
        for (int position = 0; position < values.length; position++) {
            if (values[position] == null) {
                column.setNull(position);
            } else {
                column.set(position, values[position]);
            }
        }
        batch.setRowCount(values.length);
        return batch;
    }

    private static Batch texts(DataType type, String... values) {
        Batch batch = Batch.create(List.of(type), values.length);
        BytesVector column = (BytesVector) batch.column(0);
        for (int position = 0; position < values.length; position++) {
            if (values[position] == null) {
                column.setNull(position);
            } else {
                column.set(position, values[position].getBytes(StandardCharsets.UTF_8));
            }
        }
        batch.setRowCount(values.length);
        return batch;
    }

    /** Rows of (integer, text). */
    private static Batch pairs(Object... values) {
        int rows = values.length / 2;
        Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.TEXT), rows);
        for (int row = 0; row < rows; row++) {
            ((LongVector) batch.column(0)).set(row, ((Number) values[2 * row]).longValue());
            ((BytesVector) batch.column(1)).set(row, ((String) values[2 * row + 1]).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(rows);
        return batch;
    }

    private static long[] rowIds(int count, int page) {
        long[] ids = new long[count];
        for (int row = 0; row < count; row++) {
            ids[row] = RowIds.pack(page, row);
        }
        return ids;
    }

    @Test
    void rowIdsPackPageAndRow() {
        long id = RowIds.pack(70_000, 4095);
        assertEquals(70_000, RowIds.pageIndex(id));
        assertEquals(4095, RowIds.row(id));
        assertEquals(Integer.MAX_VALUE, RowIds.pageIndex(RowIds.pack(Integer.MAX_VALUE, Integer.MAX_VALUE)));
        assertTrue(RowIds.pack(Integer.MAX_VALUE, Integer.MAX_VALUE) > 0);
        assertThrows(IllegalArgumentException.class, () -> RowIds.pack(-1, 0));
    }

    @Test
    void longKeysPointOperations() {
        LongKeyIndex index = openLong(1024);
        assertEquals(RowIds.ABSENT, index.get(42));
        assertTrue(index.putIfAbsent(42, 7));
        assertFalse(index.putIfAbsent(42, 8));
        assertEquals(7, index.get(42));
        assertFalse(index.replace(42, 8, 9));
        assertTrue(index.replace(42, 7, 9));
        assertEquals(9, index.get(42));
        assertFalse(index.remove(42, 7));
        assertTrue(index.remove(42, 9));
        assertEquals(RowIds.ABSENT, index.get(42));
        assertTrue(index.putIfAbsent(Long.MIN_VALUE, 1));
        assertTrue(index.putIfAbsent(-1, 2));
        assertEquals(1, index.get(Long.MIN_VALUE));
        assertEquals(2, index.get(-1));
        assertEquals(2, index.size());
    }

    /** The hook a partitioned point lookup reads its partition's counters in runs once per lookup, found or not. */
    @Test
    void longKeyLookupRunsItsBeforeProbeHookOnce() {
        LongKeyIndex index = openLong(1024);
        assertTrue(index.putIfAbsent(42, 7));
        AtomicInteger calls = new AtomicInteger();
        assertEquals(7, index.get(42, calls::incrementAndGet, null));
        assertEquals(1, calls.get());
        assertEquals(RowIds.ABSENT, index.get(43, calls::incrementAndGet, null));
        assertEquals(2, calls.get());
        assertEquals(7, index.get(42, null, null));
    }

    @Test
    void longKeyLayoutChosenForLongHeldColumnsOnly() {
        for (DataType type : List.of(DataType.SMALLINT, DataType.INTEGER, DataType.BIGINT, DataType.DATE, DataType.TIMESTAMP)) {
            assertInstanceOf(LongKeyIndex.class, open(IndexDefinition.primaryKey("t", List.of("id"), List.of(type))));
        }
        assertInstanceOf(BytesKeyIndex.class, open(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.TEXT))));
        assertInstanceOf(BytesKeyIndex.class, open(IndexDefinition.primaryKey("t", List.of("a", "b"),
                List.of(DataType.INTEGER, DataType.INTEGER))));
    }

    @Test
    void batchLookupHonoursSelectionAndNulls() {
        UniqueIndex index = open(IndexDefinition.unique("t", List.of("id"), List.of(DataType.BIGINT)));
        index.insertAll(longs(DataType.BIGINT, 10L, 20L, null, 30L), FIRST, new long[] {100, 200, 300, 400});
        assertEquals(3, index.size());
        Batch probe = longs(DataType.BIGINT, 30L, 11L, null, 10L, 20L);
        probe.setSelection(new int[] {0, 1, 2, 3}, 4);
        long[] out = {5, 5, 5, 5, 5};
        index.lookup(probe, FIRST, out);
        assertEquals(List.of(400L, -1L, -1L, 100L, 5L), List.of(out[0], out[1], out[2], out[3], out[4]));
    }

    @Test
    void textKeys() {
        UniqueIndex index = open(IndexDefinition.primaryKey("users", List.of("name"), List.of(DataType.TEXT)));
        index.insertAll(texts(DataType.TEXT, "alice", "bob", "", "Ünïcødé"), FIRST, rowIds(4, 3));
        long[] out = new long[5];
        index.lookup(texts(DataType.TEXT, "bob", "Alice", "", "Ünïcødé", "alice "), FIRST, out);
        assertEquals(List.of(RowIds.pack(3, 1), -1L, RowIds.pack(3, 2), RowIds.pack(3, 3), -1L),
                List.of(out[0], out[1], out[2], out[3], out[4]));
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> index.insertAll(texts(DataType.TEXT, "carol", "bob"), FIRST, rowIds(2, 4)));
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals("duplicate key value violates unique constraint \"users_pkey\"", duplicate.getMessage());
        assertEquals("Key (name)=(bob) already exists.", duplicate.detail());
        assertEquals(RowIds.ABSENT, index.get(texts(DataType.TEXT, "carol"), FIRST, 0));
        assertEquals(4, index.size());
    }

    @Test
    void charKeysIgnoreTrailingBlanks() {
        DataType char5 = DataType.charType(5);
        UniqueIndex index = open(IndexDefinition.primaryKey("t", List.of("code"), List.of(char5)));
        assertTrue(index.putIfAbsent(texts(char5, "ab   "), FIRST, 0, 11));
        assertEquals(11, index.get(texts(char5, "ab"), FIRST, 0));
        assertEquals(RowIds.ABSENT, index.get(texts(char5, " ab"), FIRST, 0));
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> index.insertAll(texts(char5, "ab "), FIRST, new long[] {12}));
        assertEquals("Key (code)=(ab ) already exists.", duplicate.detail());
        // varchar keeps trailing blanks significant, as in PostgreSQL
        UniqueIndex varchar = open(IndexDefinition.unique("v", List.of("code"), List.of(DataType.varchar(5))));
        varchar.insertAll(texts(DataType.varchar(5), "ab", "ab "), FIRST, new long[] {1, 2});
        assertEquals(2, varchar.size());
    }

    @Test
    void multiColumnKeys() {
        UniqueIndex index = open(IndexDefinition.primaryKey("orders", List.of("id", "region"),
                List.of(DataType.INTEGER, DataType.TEXT)));
        index.insertAll(pairs(1, "eu", 1, "us", 2, "eu", 12, "", 1, "2eu"), FIRST_TWO, rowIds(5, 0));
        assertEquals(5, index.size());
        long[] out = new long[3];
        index.lookup(pairs(1, "us", 2, "eu", 2, "us"), FIRST_TWO, out);
        assertEquals(List.of(RowIds.pack(0, 1), RowIds.pack(0, 2), -1L), List.of(out[0], out[1], out[2]));
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> index.insertAll(pairs(3, "x", 2, "eu"), FIRST_TWO, rowIds(2, 1)));
        assertEquals("duplicate key value violates unique constraint \"orders_pkey\"", duplicate.getMessage());
        assertEquals("Key (id, region)=(2, eu) already exists.", duplicate.detail());
    }

    @Test
    void nullPrimaryKeysRejectedBeforeAnyInsert() {
        UniqueIndex index = openLong(1024);
        ParallaxException error = assertThrows(ParallaxException.class,
                () -> index.insertAll(longs(DataType.INTEGER, 1L, null), FIRST, new long[] {1, 2}));
        assertEquals(SqlState.NOT_NULL_VIOLATION, error.state());
        assertEquals("null value in column \"id\" of relation \"t\" violates not-null constraint", error.getMessage());
        assertEquals(0, index.size());
        assertThrows(ParallaxException.class, () -> index.putIfAbsent(longs(DataType.INTEGER, (Long) null), FIRST, 0, 1));
        UniqueIndex multi = open(IndexDefinition.primaryKey("m", List.of("a", "b"), List.of(DataType.INTEGER, DataType.TEXT)));
        Batch withNullText = pairs(1, "x");
        withNullText.column(1).setNull(0);
        ParallaxException second = assertThrows(ParallaxException.class, () -> multi.insertAll(withNullText, FIRST_TWO, new long[] {1}));
        assertEquals("null value in column \"b\" of relation \"m\" violates not-null constraint", second.getMessage());
    }

    @Test
    void uniqueConstraintAllowsManyNulls() {
        UniqueIndex index = open(IndexDefinition.unique("t", List.of("email"), List.of(DataType.TEXT)));
        index.insertAll(texts(DataType.TEXT, null, "a", null), FIRST, new long[] {1, 2, 3});
        assertEquals(1, index.size());
        assertEquals("t_email_key", index.definition().constraintName());
    }

    @Test
    void batchInsertIsAllOrNothing() {
        LongKeyIndex index = openLong(1024);
        index.insertAll(longs(DataType.INTEGER, 42L), FIRST, new long[] {RowIds.pack(0, 0)});
        ParallaxException existing = assertThrows(ParallaxException.class,
                () -> index.insertAll(longs(DataType.INTEGER, 1L, 2L, 42L, 3L), FIRST, rowIds(4, 1)));
        assertEquals(SqlState.UNIQUE_VIOLATION, existing.state());
        assertEquals("duplicate key value violates unique constraint \"t_pkey\"", existing.getMessage());
        assertEquals("Key (id)=(42) already exists.", existing.detail());
        assertEquals(1, index.size());
        assertEquals(RowIds.ABSENT, index.get(1));
        assertEquals(RowIds.ABSENT, index.get(2));
        assertEquals(0, index.get(42));

        ParallaxException insideBatch = assertThrows(ParallaxException.class,
                () -> index.insertAll(longs(DataType.INTEGER, 5L, 6L, 5L), FIRST, rowIds(3, 2)));
        assertEquals("Key (id)=(5) already exists.", insideBatch.detail());
        assertEquals(1, index.size());
        assertEquals(RowIds.ABSENT, index.get(5));
        assertEquals(RowIds.ABSENT, index.get(6));

        Batch selected = longs(DataType.INTEGER, 7L, 42L, 8L);
        selected.setSelection(new int[] {0, 2}, 2);
        index.insertAll(selected, FIRST, rowIds(3, 3));
        assertEquals(RowIds.pack(3, 0), index.get(7));
        assertEquals(RowIds.pack(3, 2), index.get(8));
        assertEquals(3, index.size());
    }

    @Test
    void growsPastInitialSizeKeepingEveryKey() {
        LongKeyIndex index = openLong(1000);
        long firstReservation = index.reservedBytes();
        assertEquals(firstReservation, memory.allocatedBytes(MemoryTag.INDEXES));
        for (long key = 0; key < 50_000; key++) {
            assertTrue(index.putIfAbsent(key * 7919, key));
        }
        assertEquals(50_000, index.size());
        index.finishGrowth();
        assertTrue(index.reservedBytes() > firstReservation);
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
        for (long key = 0; key < 50_000; key++) {
            assertEquals(key, index.get(key * 7919));
        }
        UniqueIndex text = open(IndexDefinition.primaryKey("s", List.of("k"), List.of(DataType.TEXT)).withInitialEntries(100));
        String[] keys = new String[5000];
        for (int key = 0; key < keys.length; key++) {
            keys[key] = "key-" + key;
        }
        text.insertAll(texts(DataType.TEXT, keys), FIRST, rowIds(keys.length, 9));
        long[] out = new long[keys.length];
        text.lookup(texts(DataType.TEXT, keys), FIRST, out);
        for (int key = 0; key < keys.length; key++) {
            assertEquals(RowIds.pack(9, key), out[key]);
        }
    }

    @Test
    void mapLargeEnoughForHugePagesKeepsEveryKeyAcrossGrowth() {
        // 1M entries is past HUGE_PAGES_FROM_BYTES: the map's memory is advised and collapsed onto huge
        // pages after creation (already-written header and hash slots are copied); nothing may be lost.
        LongKeyIndex index = openLong(1_000_000);
        assertTrue(index.reservedBytes() >= ChronicleUniqueIndex.HUGE_PAGES_FROM_BYTES, "reserved " + index.reservedBytes());
        int keys = 900_000;
        for (long key = 0; key < keys; key++) {
            assertTrue(index.putIfAbsent(key * 0x9E3779B97F4A7C15L, RowIds.pack((int) (key >>> 10), (int) (key & 1023))));
        }
        assertFalse(index.putIfAbsent(0, 1));
        for (long key = 0; key < keys; key++) {
            assertEquals(RowIds.pack((int) (key >>> 10), (int) (key & 1023)), index.get(key * 0x9E3779B97F4A7C15L));
        }
        assertEquals(RowIds.ABSENT, index.get(keys * 0x9E3779B97F4A7C15L));
        assertEquals(keys, index.size());
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void memoryReservedWhileOpenAndReleasedOnClose() {
        LongKeyIndex index = openLong(10_000);
        assertTrue(index.reservedBytes() > 10_000 * 16);
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
        index.close();
        index.close();
        assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES));
        assertThrows(IllegalStateException.class, () -> index.get(1));
    }

    @Test
    void overBudgetIndexFailsWithOutOfMemoryAndHoldsNothing() {
        MemoryManager small = new MemoryManager(64 * 1024);
        ParallaxException error = assertThrows(ParallaxException.class, () -> UniqueIndexes.create(
                IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT)).withInitialEntries(1_000_000), small));
        assertEquals(SqlState.OUT_OF_MEMORY, error.state());
        assertEquals(0, small.allocatedBytes());
    }

    @Test
    void concurrentWritersExactlyOneWinnerPerKeyAndNoLostReplace() throws Exception {
        LongKeyIndex index = openLong(1000);
        int threads = 4;
        int range = 20_000;
        AtomicInteger wins = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int first = thread * range / 2; // each range overlaps its neighbour's by half
                int owner = thread;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int key = first; key < first + range; key++) {
                        if (index.putIfAbsent(key, RowIds.pack(owner, key))) {
                            wins.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
            int distinct = (threads + 1) * range / 2;
            assertEquals(distinct, wins.get());
            assertEquals(distinct, index.size());
            for (int key = 0; key < distinct; key++) {
                long rowId = index.get(key);
                int owner = RowIds.pageIndex(rowId);
                assertEquals(key, RowIds.row(rowId));
                assertTrue(owner * range / 2 <= key && key < owner * range / 2 + range, "key " + key + " owner " + owner);
            }

            // Counters: every thread increments keys 0..99 through compare-and-set; no increment is lost.
            int counters = 100;
            int increments = 2000;
            for (int key = 0; key < counters; key++) {
                index.replace(key, index.get(key), 0);
            }
            CountDownLatch again = new CountDownLatch(1);
            done.clear();
            for (int thread = 0; thread < threads; thread++) {
                done.add(pool.submit(() -> {
                    again.await();
                    for (int step = 0; step < increments; step++) {
                        int key = step % counters;
                        long seen;
                        do {
                            seen = index.get(key);
                        } while (!index.replace(key, seen, seen + 1));
                    }
                    return null;
                }));
            }
            again.countDown();
            for (Future<?> future : done) {
                future.get();
            }
            for (int key = 0; key < counters; key++) {
                assertEquals((long) threads * increments / counters, index.get(key));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentWritersAcrossGrowthPointsKeepOneOwnerPerKeyAndEveryChange() throws Exception {
        // From 1,000 entries to about 60,000 keys: the index grows six times while four threads insert
        // overlapping keys, and replace and remove the keys they won, so writes land before, during
        // and after each growth's copy. Each thread records what it owns; the union is the index.
        LongKeyIndex index = openLong(1000);
        int threads = 4;
        int range = 30_000;
        List<java.util.concurrent.ConcurrentHashMap<Long, Long>> owned = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int first = thread * range / 2; // each range overlaps its neighbour's by half
                int owner = thread;
                java.util.concurrent.ConcurrentHashMap<Long, Long> mine = new java.util.concurrent.ConcurrentHashMap<>();
                owned.add(mine);
                done.add(pool.submit(() -> {
                    start.await();
                    for (int step = 0; step < range; step++) {
                        long key = first + (step * 7919L) % range; // every key of the range once, scattered
                        long rowId = RowIds.pack(owner, step);
                        if (!index.putIfAbsent(key, rowId)) {
                            continue;
                        }
                        mine.put(key, rowId);
                        switch (step % 5) {
                            case 1 -> {
                                assertTrue(index.replace(key, rowId, rowId + 1));
                                mine.put(key, rowId + 1);
                            }
                            case 3 -> {
                                assertTrue(index.remove(key, rowId));
                                mine.remove(key);
                            }
                            default -> {
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        java.util.Map<Long, Long> expected = new java.util.HashMap<>();
        for (java.util.Map<Long, Long> mine : owned) {
            for (java.util.Map.Entry<Long, Long> entry : mine.entrySet()) {
                assertNull(expected.put(entry.getKey(), entry.getValue()), "key " + entry.getKey() + " owned twice");
            }
        }
        assertEquals(expected.size(), index.size());
        int keys = (threads + 1) * range / 2;
        for (long key = 0; key < keys; key++) {
            assertEquals(expected.getOrDefault(key, RowIds.ABSENT), index.get(key), "key " + key);
        }
        index.finishGrowth();
        assertTrue(index.capacity() >= 32_000, "capacity " + index.capacity());
        for (long key = 0; key < keys; key++) {
            assertEquals(expected.getOrDefault(key, RowIds.ABSENT), index.get(key), "key " + key);
        }
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
        assertTrue(index.reservedBytes() >= index.mapMemoryInUse());
    }

    @Test
    void batchInsertsAcrossGrowthPointsStayAllOrNothing() throws Exception {
        // Two threads insert batches of 500 keys from the same sequence: each batch either goes in
        // whole or fails on a key of the other thread's batch and leaves nothing behind.
        UniqueIndex index = open(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT)).withInitialEntries(1000));
        int batches = 120;
        int batchSize = 500;
        AtomicInteger inserted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<List<Integer>>> done = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                int owner = thread;
                done.add(pool.submit(() -> {
                    start.await();
                    List<Integer> won = new ArrayList<>();
                    for (int batch = 0; batch < batches; batch++) {
                        // thread 1 runs half a batch behind, so its batches straddle two of thread 0's
                        long first = (long) batch * batchSize + owner * batchSize / 2;
                        Long[] keys = new Long[batchSize];
                        for (int row = 0; row < batchSize; row++) {
                            keys[row] = first + row;
                        }
                        try {
                            index.insertAll(longs(DataType.BIGINT, keys), FIRST, rowIds(batchSize, owner * batches + batch));
                            won.add(batch);
                            inserted.addAndGet(batchSize);
                        } catch (ParallaxException duplicate) {
                            assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
                        }
                    }
                    return won;
                }));
            }
            start.countDown();
            List<List<Integer>> won = new ArrayList<>();
            for (Future<List<Integer>> future : done) {
                won.add(future.get());
            }
            assertEquals(inserted.get(), index.size());
            long[] out = new long[1];
            java.util.Map<Long, Long> expected = new java.util.HashMap<>();
            for (int owner = 0; owner < 2; owner++) {
                for (int batch : won.get(owner)) {
                    long first = (long) batch * batchSize + owner * batchSize / 2;
                    for (int row = 0; row < batchSize; row++) {
                        assertNull(expected.put(first + row, RowIds.pack(owner * batches + batch, row)), "key " + (first + row) + " twice");
                    }
                }
            }
            for (long key = 0; key < (long) batches * batchSize + batchSize; key++) {
                index.lookup(longs(DataType.BIGINT, key), FIRST, out);
                assertEquals(expected.getOrDefault(key, RowIds.ABSENT), out[0], "key " + key);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void growthWithRemovesAndReplacesInBetweenKeepsExactContents() {
        LongKeyIndex index = openLong(1000);
        java.util.Map<Long, Long> expected = new java.util.HashMap<>();
        long next = 0;
        for (int round = 0; round < 40; round++) {
            for (int step = 0; step < 1500; step++, next++) {
                long key = next * 0x9E3779B97F4A7C15L;
                assertTrue(index.putIfAbsent(key, next));
                expected.put(key, next);
            }
            // Remove a fifth and move a fifth of what is there, as DELETE and VACUUM do between inserts.
            for (long old = round % 5; old < next; old += 5) {
                long key = old * 0x9E3779B97F4A7C15L;
                Long rowId = expected.get(key);
                if (rowId != null && old % 2 == 0) {
                    assertTrue(index.remove(key, rowId));
                    expected.remove(key);
                } else if (rowId != null) {
                    assertTrue(index.replace(key, rowId, rowId + 1_000_000));
                    expected.put(key, rowId + 1_000_000);
                }
            }
            assertEquals(expected.size(), index.size());
        }
        index.finishGrowth();
        for (long old = 0; old < next; old++) {
            long key = old * 0x9E3779B97F4A7C15L;
            assertEquals(expected.getOrDefault(key, RowIds.ABSENT), index.get(key), "key " + old);
        }
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
        assertTrue(index.reservedBytes() >= index.mapMemoryInUse());
    }

    @Test
    void closingWhileGrowingGivesEveryByteBack() {
        for (int attempt = 0; attempt < 20; attempt++) {
            LongKeyIndex index = (LongKeyIndex) UniqueIndexes.create(
                    IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.INTEGER)).withInitialEntries(20_000), memory);
            // Past the start of a growth (60%): the growth thread is creating or copying when close comes.
            for (long key = 0; key < 12_500 + attempt * 100; key++) {
                index.putIfAbsent(key, key);
            }
            index.close();
            assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES), "attempt " + attempt);
        }
    }

    @Test
    void growthOverBudgetFailsTheInsertAtTheHardLimitAndKeepsTheIndexUsable() {
        MemoryManager probe = new MemoryManager(1L << 30);
        long small;
        long large;
        try (UniqueIndex one = UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT))
                .withInitialEntries(1000), probe); UniqueIndex two = UniqueIndexes.create(IndexDefinition.primaryKey("t",
                List.of("id"), List.of(DataType.BIGINT)).withInitialEntries(2000), probe)) {
            small = one.reservedBytes();
            large = two.reservedBytes();
        }
        MemoryManager tight = new MemoryManager(small + large - 1);
        LongKeyIndex index = (LongKeyIndex) UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT))
                .withInitialEntries(1000), tight);
        try {
            long hardLimit = (long) (1000 * ChronicleUniqueIndex.HARD_FILL);
            for (long key = 0; key < hardLimit; key++) {
                assertTrue(index.putIfAbsent(key, key));
            }
            ParallaxException error = assertThrows(ParallaxException.class, () -> index.putIfAbsent(hardLimit, hardLimit));
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(hardLimit, index.size());
            assertEquals(RowIds.ABSENT, index.get(hardLimit));
            assertEquals(7, index.get(7));
            // Room made by a delete is usable; the failed growth holds nothing.
            assertTrue(index.remove(7, 7));
            assertTrue(index.putIfAbsent(hardLimit, hardLimit));
            assertEquals(small, tight.allocatedBytes(MemoryTag.INDEXES));
        } finally {
            index.close();
        }
        assertEquals(0, tight.allocatedBytes());
    }

    @Test
    void bulkInsertSizesTheIndexOnceWithAsManyKeysAgainToSpare() {
        LongKeyIndex index = openLong(1000);
        for (long key = 0; key < 500; key++) {
            assertTrue(index.putIfAbsent(key, key));
        }
        index.prepareForInserts(20_000);
        long sized = (long) Math.ceil(20_500 / ChronicleUniqueIndex.PRESIZE_FILL);
        assertEquals(sized, index.capacity());
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
        for (long key = 0; key < 500; key++) {
            assertEquals(key, index.get(key));
        }
        // The bulk insert's keys and as many again go in without another growth.
        long beforeNextGrowth = (long) (sized * ChronicleUniqueIndex.START_FILL);
        for (long key = 500; key < beforeNextGrowth; key++) {
            assertTrue(index.putIfAbsent(key, key));
        }
        index.finishGrowth();
        assertEquals(sized, index.capacity());
        assertEquals(beforeNextGrowth, index.size());
        for (long key = 0; key < beforeNextGrowth; key++) {
            assertEquals(key, index.get(key));
        }
        // Already large enough: a second bulk insert of the same size changes nothing.
        long reserved = index.reservedBytes();
        index.prepareForInserts(0);
        index.prepareForInserts(-5);
        assertEquals(reserved, index.reservedBytes());
    }

    @Test
    void fewInsertsLeaveTheIndexAsItIs() {
        LongKeyIndex index = openLong(IndexDefinition.DEFAULT_INITIAL_ENTRIES);
        long reserved = index.reservedBytes();
        // Up to the fill where a growth begins, nothing changes: a table of many small partitions
        // or a small table keeps its default map.
        index.prepareForInserts((long) (IndexDefinition.DEFAULT_INITIAL_ENTRIES * ChronicleUniqueIndex.START_FILL));
        assertEquals(IndexDefinition.DEFAULT_INITIAL_ENTRIES, index.capacity());
        assertEquals(reserved, index.reservedBytes());
        assertEquals(reserved, memory.allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void bulkInsertTooLargeForTheBudgetLeavesTheIndexToGrowStepByStep() {
        MemoryManager tight = new MemoryManager(8L << 20);
        LongKeyIndex index = (LongKeyIndex) UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT))
                .withInitialEntries(1000), tight);
        try {
            long reserved = index.reservedBytes();
            index.prepareForInserts(10_000_000);
            assertEquals(1000, index.capacity());
            assertEquals(reserved, tight.allocatedBytes(MemoryTag.INDEXES));
            for (long key = 0; key < 5000; key++) {
                assertTrue(index.putIfAbsent(key, key));
            }
            index.finishGrowth();
            assertTrue(index.capacity() >= 5000, "capacity " + index.capacity());
            assertEquals(index.reservedBytes(), tight.allocatedBytes(MemoryTag.INDEXES));
            for (long key = 0; key < 5000; key++) {
                assertEquals(key, index.get(key));
            }
        } finally {
            index.close();
        }
        assertEquals(0, tight.allocatedBytes());
    }

    @Test
    void writersGoOnWhileABulkInsertSizesTheIndex() throws Exception {
        // Two writers insert, replace and remove their own keys from 1,000 entries on (so growths of
        // their own begin and end) while a third thread, midway, sizes the index for a bulk insert:
        // the sizing waits for or helps a growth under way, then copies while the writers go on.
        LongKeyIndex index = openLong(1000);
        int writers = 2;
        int perWriter = 40_000;
        List<java.util.concurrent.ConcurrentHashMap<Long, Long>> owned = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                int owner = writer;
                java.util.concurrent.ConcurrentHashMap<Long, Long> mine = new java.util.concurrent.ConcurrentHashMap<>();
                owned.add(mine);
                done.add(pool.submit(() -> {
                    start.await();
                    for (int step = 0; step < perWriter; step++) {
                        long key = (long) step * writers + owner;
                        long rowId = RowIds.pack(owner, step);
                        assertTrue(index.putIfAbsent(key, rowId));
                        mine.put(key, rowId);
                        if (step % 4 == 1) {
                            assertTrue(index.replace(key, rowId, rowId + 1));
                            mine.put(key, rowId + 1);
                        } else if (step % 4 == 3) {
                            assertTrue(index.remove(key, rowId));
                            mine.remove(key);
                        }
                    }
                    return null;
                }));
            }
            done.add(pool.submit(() -> {
                start.await();
                while (index.size() < 2000) {
                    Thread.onSpinWait();
                }
                index.prepareForInserts(100_000);
                return null;
            }));
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        index.finishGrowth();
        java.util.Map<Long, Long> expected = new java.util.HashMap<>();
        for (java.util.Map<Long, Long> mine : owned) {
            expected.putAll(mine);
        }
        assertEquals(expected.size(), index.size());
        for (long key = 0; key < (long) writers * perWriter; key++) {
            assertEquals(expected.getOrDefault(key, RowIds.ABSENT), index.get(key), "key " + key);
        }
        assertTrue(index.capacity() >= (long) (100_000 / ChronicleUniqueIndex.PRESIZE_FILL), "capacity " + index.capacity());
        assertEquals(index.reservedBytes(), memory.allocatedBytes(MemoryTag.INDEXES));
    }

    @Test
    void chronicleNeverPhonesHome() {
        open(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT)));
        assertEquals("true", System.getProperty("chronicle.analytics.disable"));
        assertEquals("true", System.getProperty("chronicle.announcer.disable"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("net.openhft.chronicle.analytics.Analytics"));
        assertFalse(net.openhft.chronicle.core.analytics.AnalyticsFacade.isEnabled());
        assertNull(UniqueIndexTest.class.getClassLoader().getResource("net/openhft/chronicle/analytics/Analytics.class"));
    }
}
