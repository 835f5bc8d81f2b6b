package dev.parallax.engine.index;

import dev.parallax.engine.memory.HugePages;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import java.util.BitSet;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.StampedLock;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.hash.impl.VanillaChronicleHash;
import net.openhft.chronicle.map.ExternalMapQueryContext;

/**
 * The Chronicle Map machinery shared by both key layouts: per-thread reusable key and value
 * holders (no boxing, no allocation per call), memory accounting, growth and the batch operations.
 *
 * <p>Growth: Chronicle Map fixes its capacity ({@code entries}) at creation. The index counts its
 * keys and, before an insert would take the count past {@value #FILL_LIMIT} of the capacity,
 * rebuilds into a map of twice the needed size under the write side of {@link #growthLock}; every
 * other operation holds the read side, so no operation ever sees a closed map. Chronicle's
 * {@code maxBloatFactor} of {@value #BLOAT_FACTOR} absorbs an unevenly filled segment between
 * rebuilds. The map's {@code offHeapMemoryUsed()} at creation is reserved with tag INDEXES.
 *
 * @param <K> the reusable key holder Chronicle serializes
 */
abstract sealed class ChronicleUniqueIndex<K> implements UniqueIndex permits LongKeyIndex, BytesKeyIndex {
    static final double FILL_LIMIT = 0.8;
    static final double BLOAT_FACTOR = 2.0;
    /** Maps smaller than this stay on ordinary pages: a few huge pages per tiny table would waste memory. */
    static final long HUGE_PAGES_FROM_BYTES = 16L << 20;

    static {
        ChronicleSettings.apply();
    }

    /** Per-thread holders: Chronicle fills and reads these instead of allocating. */
    static final class Scratch<K> {
        final K key;
        final K copyKey;
        final LongCell value = new LongCell();
        final LongCell expected = new LongCell();

        Scratch(K key, K copyKey) {
            this.key = key;
            this.copyKey = copyKey;
        }
    }

    protected final IndexDefinition definition;
    protected final KeyEncoder encoder;
    private final MemoryManager memory;
    private final StampedLock growthLock = new StampedLock();
    private final AtomicLong count = new AtomicLong();
    private final ThreadLocal<Scratch<K>> scratch = ThreadLocal.withInitial(() -> new Scratch<>(newKey(), newKey()));
    /** The tags held by the partitions sharing this index (a partitioned table's index only). */
    private final BitSet partitionTags = new BitSet();
    private ChronicleMap<K, LongCell> map;
    private long capacity;
    private volatile long growthThreshold;
    private long reserved;
    private boolean closed;

    ChronicleUniqueIndex(IndexDefinition definition, MemoryManager memory) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.encoder = new KeyEncoder(definition);
    }

    /** Creates the first map; called by subclass constructors once their own fields are set. */
    final void open() {
        long entries = definition.initialEntries();
        ChronicleMap<K, LongCell> first = createReserved(entries);
        install(first, entries, first.offHeapMemoryUsed());
    }

    /** A new empty map for {@code entries} keys. */
    abstract ChronicleMap<K, LongCell> createMap(long entries);

    abstract K newKey();

    /** Loads the key at {@code position} into {@code key}; false when a key column is NULL. */
    abstract boolean loadKey(Batch keys, int[] keyColumns, int position, K key);

    @Override
    public final IndexDefinition definition() {
        return definition;
    }

    @Override
    public final long size() {
        return count.get();
    }

    @Override
    public final long reservedBytes() {
        return reserved;
    }

    final Scratch<K> scratch() {
        return scratch.get();
    }

    // ---- point operations on a loaded key; the caller holds no lock ----

    final long getKey(K key, LongCell valueHolder) {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            LongCell found = map.getUsing(key, valueHolder);
            return found == null ? RowIds.ABSENT : found.value;
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    final boolean putIfAbsentKey(K key, LongCell valueHolder, long rowId) {
        ensureRoom(1);
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            return insertLocked(key, valueHolder, rowId);
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    final boolean replaceKey(K key, LongCell expectedHolder, LongCell valueHolder, long expectedRowId, long newRowId) {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            expectedHolder.value = expectedRowId;
            valueHolder.value = newRowId;
            // Chronicle compares the stored value's bytes with expected under the segment lock.
            return map.replace(key, expectedHolder, valueHolder);
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    final boolean removeKey(K key, LongCell expectedHolder, long expectedRowId) {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            return removeLocked(key, expectedHolder, expectedRowId);
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    /** Inserts under the caller's read lock; the query context avoids deserializing an existing value. */
    private boolean insertLocked(K key, LongCell valueHolder, long rowId) {
        try (ExternalMapQueryContext<K, LongCell, ?> context = map.queryContext(key)) {
            context.updateLock().lock();
            if (context.entry() != null) {
                return false;
            }
            valueHolder.value = rowId;
            context.insert(context.absentEntry(), context.wrapValueAsData(valueHolder));
        }
        count.incrementAndGet();
        return true;
    }

    private boolean removeLocked(K key, LongCell expectedHolder, long expectedRowId) {
        expectedHolder.value = expectedRowId;
        boolean removed = map.remove(key, expectedHolder);
        if (removed) {
            count.decrementAndGet();
        }
        return removed;
    }

    // ---- row-of-a-batch operations ----

    @Override
    public final long get(Batch keys, int[] keyColumns, int position) {
        Scratch<K> holders = scratch();
        if (!loadKey(keys, keyColumns, position, holders.key)) {
            return RowIds.ABSENT;
        }
        return getKey(holders.key, holders.value);
    }

    @Override
    public final boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId) {
        return putIfAbsent(keys, keyColumns, position, rowId, encoder);
    }

    /** {@link #putIfAbsent(Batch, int[], int, long)} reporting a NULL primary key through {@code errors}. */
    final boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId, KeyEncoder errors) {
        Scratch<K> holders = scratch();
        if (!loadKey(keys, keyColumns, position, holders.key)) {
            if (definition.primaryKey()) {
                errors.checkNotNull(keys, keyColumns, position);
            }
            return true;
        }
        return putIfAbsentKey(holders.key, holders.value, rowId);
    }

    @Override
    public final boolean replace(Batch keys, int[] keyColumns, int position, long expectedRowId, long newRowId) {
        Scratch<K> holders = scratch();
        return loadKey(keys, keyColumns, position, holders.key)
                && replaceKey(holders.key, holders.expected, holders.value, expectedRowId, newRowId);
    }

    @Override
    public final boolean remove(Batch keys, int[] keyColumns, int position, long expectedRowId) {
        Scratch<K> holders = scratch();
        return loadKey(keys, keyColumns, position, holders.key)
                && removeKey(holders.key, holders.expected, expectedRowId);
    }

    @Override
    public final void lookup(Batch keys, int[] keyColumns, long[] rowIdsOut) {
        Scratch<K> holders = scratch();
        int live = keys.selectedCount();
        int[] selection = keys.selection();
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            ChronicleMap<K, LongCell> current = map;
            for (int index = 0; index < live; index++) {
                int position = selection == null ? index : selection[index];
                if (!loadKey(keys, keyColumns, position, holders.key)) {
                    rowIdsOut[position] = RowIds.ABSENT;
                    continue;
                }
                LongCell found = current.getUsing(holders.key, holders.value);
                rowIdsOut[position] = found == null ? RowIds.ABSENT : found.value;
            }
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    @Override
    public final void insertAll(Batch rows, int[] keyColumns, long[] rowIds) {
        insertAll(rows, keyColumns, rowIds, encoder);
    }

    /**
     * {@link #insertAll(Batch, int[], long[])} reporting NULL primary keys and duplicates through
     * {@code errors} (a partition's share names the partition's constraint); returns the number of
     * keys inserted (rows with a NULL key of a UNIQUE constraint are not indexed).
     */
    final int insertAll(Batch rows, int[] keyColumns, long[] rowIds, KeyEncoder errors) {
        int live = rows.selectedCount();
        int[] selection = rows.selection();
        if (definition.primaryKey()) {
            // NULL keys fail the statement before any key goes in, as PostgreSQL checks NOT NULL first.
            for (int index = 0; index < live; index++) {
                errors.checkNotNull(rows, keyColumns, selection == null ? index : selection[index]);
            }
        }
        ensureRoom(live);
        Scratch<K> holders = scratch();
        int inserted = 0;
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            for (int index = 0; index < live; index++) {
                int position = selection == null ? index : selection[index];
                if (!loadKey(rows, keyColumns, position, holders.key)) {
                    continue;
                }
                if (!insertLocked(holders.key, holders.value, rowIds[position])) {
                    undoInserts(rows, keyColumns, rowIds, index, holders);
                    throw errors.duplicate(rows, keyColumns, position);
                }
                inserted++;
            }
            return inserted;
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    /** Removes the keys of the first {@code insertedCount} live rows, each only if it still points at this batch's row. */
    private void undoInserts(Batch rows, int[] keyColumns, long[] rowIds, int insertedCount, Scratch<K> holders) {
        int[] selection = rows.selection();
        for (int index = 0; index < insertedCount; index++) {
            int position = selection == null ? index : selection[index];
            if (loadKey(rows, keyColumns, position, holders.copyKey)) {
                removeLocked(holders.copyKey, holders.expected, rowIds[position]);
            }
        }
    }

    @Override
    public final dev.parallax.engine.error.ParallaxException duplicateKeyError(Batch keys, int[] keyColumns, int position) {
        return encoder.duplicate(keys, keyColumns, position);
    }

    // ---- growth, memory, close ----

    private void ensureRoom(long extraKeys) {
        if (count.get() + extraKeys > growthThreshold) {
            grow(extraKeys);
        }
    }

    private void grow(long extraKeys) {
        long stamp = growthLock.writeLock();
        try {
            checkOpen();
            long required = count.get() + extraKeys;
            if (required <= growthThreshold) {
                return; // another thread grew the map meanwhile
            }
            long newCapacity = Math.max(capacity * 2, (long) Math.ceil(required / FILL_LIMIT) * 2);
            ChronicleMap<K, LongCell> larger = createReserved(newCapacity);
            long largerReservation = larger.offHeapMemoryUsed();
            try {
                Scratch<K> holders = scratch();
                map.forEachEntry(entry -> larger.put(entry.key().getUsing(holders.copyKey), entry.value().getUsing(holders.value)));
            } catch (RuntimeException | Error failure) {
                larger.close();
                memory.release(MemoryTag.INDEXES, largerReservation);
                throw failure;
            }
            ChronicleMap<K, LongCell> smaller = map;
            long smallerReservation = reserved;
            install(larger, newCapacity, largerReservation);
            smaller.close();
            memory.release(MemoryTag.INDEXES, smallerReservation);
        } finally {
            growthLock.unlockWrite(stamp);
        }
    }

    /**
     * A map for {@code entries} keys with its {@code offHeapMemoryUsed()} (taken right after creation)
     * reserved; nothing is held when reserving fails. Chronicle allocates before we can ask its
     * size, so an over-budget map exists for a moment and is freed at once.
     */
    private ChronicleMap<K, LongCell> createReserved(long entries) {
        ChronicleMap<K, LongCell> created = createMap(entries);
        try {
            memory.reserve(MemoryTag.INDEXES, created.offHeapMemoryUsed());
        } catch (RuntimeException overBudget) {
            created.close();
            throw overBudget;
        }
        if (created instanceof VanillaChronicleHash<?, ?, ?, ?> store && created.offHeapMemoryUsed() >= HUGE_PAGES_FROM_BYTES) {
            // Every lookup reads a random hash slot and entry: on 4 KiB pages nearly each is a TLB miss
            // too. 10M keys, alternating rounds in one JVM: 894 -> 565 ns of CPU per get (HugePages).
            HugePages.adviseAndCollapse(store.bsAddress(), created.offHeapMemoryUsed());
        }
        return created;
    }

    private void install(ChronicleMap<K, LongCell> created, long entries, long reservation) {
        map = created;
        reserved = reservation;
        capacity = entries;
        growthThreshold = (long) (capacity * FILL_LIMIT);
    }

    /**
     * Claims the smallest tag no partition sharing this index holds ({@link PartitionUniqueIndex});
     * 54000 when all {@value PartitionUniqueIndex#MAXIMUM_PARTITIONS} are taken.
     */
    final int claimPartitionTag() {
        synchronized (partitionTags) {
            int tag = partitionTags.nextClearBit(0);
            if (tag >= PartitionUniqueIndex.MAXIMUM_PARTITIONS) {
                throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "cannot have more than %d partitions sharing index \"%s\"",
                        PartitionUniqueIndex.MAXIMUM_PARTITIONS, definition.constraintName());
            }
            partitionTags.set(tag);
            return tag;
        }
    }

    /** Frees {@code tag} for a later partition once the partition holding it has removed its keys. */
    final void releasePartitionTag(int tag) {
        synchronized (partitionTags) {
            partitionTags.clear(tag);
        }
    }

    /** Whether {@link #close()} ran. */
    final boolean isClosed() {
        long stamp = growthLock.readLock();
        try {
            return closed;
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("index " + definition.constraintName() + " is closed");
        }
    }

    @Override
    public final void close() {
        long stamp = growthLock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            map.close();
            memory.release(MemoryTag.INDEXES, reserved);
            reserved = 0;
        } finally {
            growthLock.unlockWrite(stamp);
        }
    }
}
