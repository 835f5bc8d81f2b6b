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
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.StampedLock;
import net.openhft.chronicle.algo.hashing.LongHashFunction;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.hash.impl.VanillaChronicleHash;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;
import net.openhft.chronicle.map.MapSegmentContext;

/**
 * The Chronicle Map machinery shared by both key layouts: per-thread reusable key and value
 * holders (no boxing, no allocation per call), memory accounting, growth and the batch operations.
 *
 * <p>Growth without a stop: Chronicle Map fixes its capacity ({@code entries}) at creation, and
 * rebuilding a map of 13M keys into a larger one took 8 s of CPU (23 s on the loaded machine)
 * during which every reader and writer waited. So once an insert takes the key count past
 * {@value #START_FILL} of the capacity, a {@link MapMigration} begins: the growth thread
 * ({@link IndexGrowthThread}) creates a map of twice the size, installs it under the write side of
 * {@link #growthLock} (a moment: in-flight operations finish, none starts), and copies the current
 * map into it one Chronicle segment at a time, holding that segment's update lock. Meanwhile the
 * current map stays the one every lookup reads and every uniqueness check decides on, and each
 * write to it (insert, replace, remove) in a segment already copied is repeated into the larger
 * map while the writer still holds the current map's segment lock (a write to a segment not yet
 * copied is carried by its copy): a key's copy and its writes happen one after another in that
 * lock's order, so the larger map ends equal to the current one. When the last segment is
 * copied the maps are swapped under the write lock and the old one is freed. The longest wait a
 * writer sees is one segment's copy (a few thousand keys). Writers copy segments themselves when
 * the growth thread falls behind the pace that finishes by {@link MapMigration#deadlineCount};
 * an insert that would take the count past {@value #HARD_FILL} of the capacity finishes (or
 * makes) the growth itself, as the only place a growth can fail its statement (53200).
 * Chronicle's {@code maxBloatFactor} of {@value #BLOAT_FACTOR} absorbs an unevenly filled segment.
 * Each map's {@code offHeapMemoryUsed()} at creation is reserved with tag INDEXES.
 *
 * @param <K> the reusable key holder Chronicle serializes
 */
abstract sealed class ChronicleUniqueIndex<K> implements UniqueIndex permits LongKeyIndex, BytesKeyIndex {
    /** Fill at which a growth begins in the background. */
    static final double START_FILL = 0.6;
    /** Fill at which an insert finishes the growth itself rather than go on filling the current map. */
    static final double HARD_FILL = 0.9;
    /** Share of the way from the start to the hard limit by which the copy should be done. */
    static final double COPY_PACE = 0.75;
    static final double BLOAT_FACTOR = 2.0;
    /**
     * Fill a bulk insert sizes the index for ({@link #prepareForInserts}): the fill a growth leaves
     * behind (it doubles the map once {@link #START_FILL} is passed), so the map is never larger than
     * growing step by step makes it, and as many keys again as the index then holds go in before the
     * next growth. 10M rows from generate_series then 5M random upserts (UpsertBenchmark): the index
     * ended the load 60% full and began copying its 10M keys into a map twice the size after 66,000
     * upserts, on the benchmark's two cores.
     */
    static final double PRESIZE_FILL = START_FILL / 2;
    /** Share of the memory budget still free that pre-sizing may take: the bulk insert's rows need room too. */
    static final double PRESIZE_BUDGET_SHARE = 0.5;
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
        /** The value holder of a growth's copy, which a writer may run in the middle of its own operation. */
        final LongCell copyValue = new LongCell();
        /** Where a lookup puts the bytes {@link ProbePrefetch} loaded, so that the loads are not optimised away. */
        long prefetched;
        /** The index a caller's own scratch was made by ({@link #newPointScratch}); null for a thread's. */
        final ChronicleUniqueIndex<K> madeBy;

        Scratch(K key, K copyKey, ChronicleUniqueIndex<K> madeBy) {
            this.key = key;
            this.copyKey = copyKey;
            this.madeBy = madeBy;
        }
    }

    /** Replaced only by {@link #renameKeyColumn}. */
    protected volatile IndexDefinition definition;
    protected final KeyEncoder encoder;
    private final MemoryManager memory;
    private final StampedLock growthLock = new StampedLock();
    private final AtomicLong count = new AtomicLong();
    private final ThreadLocal<Scratch<K>> scratch = ThreadLocal.withInitial(() -> new Scratch<>(newKey(), newKey(), null));
    /** The tags held by the partitions sharing this index (a partitioned table's index only). */
    private final BitSet partitionTags = new BitSet();
    /** The map every operation reads and decides on; replaced under the write lock. */
    private ChronicleMap<K, LongCell> map;
    /**
     * While a growth copies: the growth, whose larger map every write to an already copied segment
     * of {@link #map} is repeated into; else null. Set and cleared under the write lock.
     */
    private MapMigration<K> copying;
    private final AtomicReference<MapMigration<K>> migration = new AtomicReference<>();
    private volatile long capacity;
    /** Keys past which a growth begins ({@link #START_FILL}), and past which an insert finishes it ({@link #HARD_FILL}). */
    private volatile long startThreshold;
    private volatile long hardThreshold;
    private long mapReservation;
    /** Bytes held: the map's and, while a growth copies, the larger map's. */
    private volatile long reserved;
    private volatile boolean closed;

    ChronicleUniqueIndex(IndexDefinition definition, MemoryManager memory) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.encoder = new KeyEncoder(definition);
    }

    /** Creates the first map; called by subclass constructors once their own fields are set. */
    final void open() {
        long entries = definition.initialEntries();
        ChronicleMap<K, LongCell> first = createReserved(entries);
        map = first;
        mapReservation = first.offHeapMemoryUsed();
        reserved = mapReservation;
        setCapacity(entries);
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
    public final void renameKeyColumn(int keyPosition, String newName) {
        definition = definition.withColumnName(keyPosition, newName);
        encoder.renamed(definition);
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

    /**
     * {@code given} when it is a scratch of this index's ({@link #newPointScratch}), else the
     * thread's: a caller's own skips the thread-local lookup, which costs tens of ns more whenever
     * the entry is not in its home slot of the thread's map (in the upsert benchmark's process on 1024
     * partitions it sat two slots on, behind two cold entries).
     */
    @SuppressWarnings("unchecked")
    final Scratch<K> scratch(Object given) {
        return given instanceof Scratch<?> own && own.madeBy == this ? (Scratch<K>) own : scratch.get();
    }

    /** {@inheritDoc} Also {@link LongKeyLookup#newPointScratch} for a {@link LongKeyIndex}. */
    @Override
    public final Object newPointScratch() {
        return new Scratch<>(newKey(), newKey(), this);
    }

    // ---- point operations on a loaded key; the caller holds no lock ----

    /**
     * {@link #getKey} of the key {@code holders.key} holds, whose value is {@code keyValue} (a
     * {@link LongKeyIndex}'s): Chronicle's first two lines are loaded together before its lookup
     * ({@link ProbePrefetch}).
     */
    final long getLongKey(Scratch<K> holders, long keyValue, BeforeProbe beforeProbe) {
        return getKey(holders.key, holders.value, holders, longKeyHash(keyValue), beforeProbe);
    }

    /**
     * The two lines a lookup of the long key {@code keyValue} reads first ({@link
     * ProbePrefetch#addresses}), computed without the growth lock: for a prefetch only, which never
     * faults, since a growth may replace and free the map meanwhile.
     */
    final void probeLinesOfLongKey(long keyValue, long[] out, int from) {
        ProbePrefetch.addresses(map, longKeyHash(keyValue), out, from);
    }

    /** The hash Chronicle's lookup computes for a long key: what {@link ProbePrefetch} needs to find its lines. */
    private static long longKeyHash(long keyValue) {
        return LongHashFunction.xx_r39().hashLong(keyValue);
    }

    final long getKey(K key, LongCell valueHolder) {
        return getKey(key, valueHolder, null, 0, null);
    }

    /**
     * The lookup under the read lock; with {@code prefetch}, the probe of a key hashing to {@code
     * keyHash} is prefetched into it first, and {@code beforeProbe} (null: none) runs right after.
     */
    private long getKey(K key, LongCell valueHolder, Scratch<K> prefetch, long keyHash, BeforeProbe beforeProbe) {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            if (prefetch != null) {
                prefetch.prefetched = ProbePrefetch.touch(map, keyHash);
            }
            if (beforeProbe != null) {
                beforeProbe.beforeProbe();
            }
            LongCell found = map.getUsing(key, valueHolder);
            return found == null ? RowIds.ABSENT : found.value;
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    /** The map lookups read now, for tests; replaced by a growth. */
    final ChronicleMap<K, LongCell> currentMap() {
        return map;
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
            if (copying != null) {
                return replaceMirrored(key, expectedHolder, valueHolder);
            }
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
            if (copying != null && copying.isCopied(context.segmentIndex())) {
                mirrorPut(key, valueHolder);
            }
        }
        count.incrementAndGet();
        return true;
    }

    private boolean removeLocked(K key, LongCell expectedHolder, long expectedRowId) {
        expectedHolder.value = expectedRowId;
        boolean removed = copying == null ? map.remove(key, expectedHolder) : removeMirrored(key, expectedHolder);
        if (removed) {
            count.decrementAndGet();
        }
        return removed;
    }

    // ---- writes during a growth: decided on the map, repeated into the larger one under the map's segment lock ----

    private boolean replaceMirrored(K key, LongCell expectedHolder, LongCell valueHolder) {
        long expectedRowId = expectedHolder.value;
        try (ExternalMapQueryContext<K, LongCell, ?> context = map.queryContext(key)) {
            context.updateLock().lock();
            MapEntry<K, LongCell> entry = context.entry();
            if (entry == null || entry.value().getUsing(expectedHolder).value != expectedRowId) {
                return false;
            }
            context.replaceValue(entry, context.wrapValueAsData(valueHolder));
            if (copying.isCopied(context.segmentIndex())) {
                mirrorPut(key, valueHolder);
            }
            return true;
        }
    }

    private boolean removeMirrored(K key, LongCell expectedHolder) {
        long expectedRowId = expectedHolder.value;
        try (ExternalMapQueryContext<K, LongCell, ?> context = map.queryContext(key)) {
            context.updateLock().lock();
            MapEntry<K, LongCell> entry = context.entry();
            if (entry == null || entry.value().getUsing(expectedHolder).value != expectedRowId) {
                return false;
            }
            context.remove(entry);
            if (copying.isCopied(context.segmentIndex())) {
                mirrorRemove(key);
            }
            return true;
        }
    }

    /** Sets {@code key} to {@code value} in the growth's larger map; the caller holds the key's segment lock of {@link #map}. */
    private void mirrorPut(K key, LongCell value) {
        try (ExternalMapQueryContext<K, LongCell, ?> context = copying.target.queryContext(key)) {
            context.updateLock().lock();
            MapEntry<K, LongCell> entry = context.entry();
            if (entry == null) {
                context.insert(context.absentEntry(), context.wrapValueAsData(value));
            } else {
                context.replaceValue(entry, context.wrapValueAsData(value));
            }
        }
    }

    /** Removes {@code key} from the growth's larger map; the caller holds the key's segment lock of {@link #map}. */
    private void mirrorRemove(K key) {
        try (ExternalMapQueryContext<K, LongCell, ?> context = copying.target.queryContext(key)) {
            context.updateLock().lock();
            MapEntry<K, LongCell> entry = context.entry();
            if (entry != null) {
                context.remove(entry);
            }
        }
    }

    // ---- row-of-a-batch operations ----

    @Override
    public final long get(Batch keys, int[] keyColumns, int position) {
        return get(keys, keyColumns, position, null);
    }

    @Override
    public final long get(Batch keys, int[] keyColumns, int position, Object pointScratch) {
        Scratch<K> holders = scratch(pointScratch);
        if (!loadKey(keys, keyColumns, position, holders.key)) {
            return RowIds.ABSENT;
        }
        return getKey(holders.key, holders.value);
    }

    @Override
    public final boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId) {
        return putIfAbsent(keys, keyColumns, position, rowId, encoder, null);
    }

    @Override
    public final boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId, Object pointScratch) {
        return putIfAbsent(keys, keyColumns, position, rowId, encoder, pointScratch);
    }

    /**
     * {@link #putIfAbsent(Batch, int[], int, long, Object)} reporting a NULL primary key through
     * {@code errors}.
     */
    final boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId, KeyEncoder errors, Object pointScratch) {
        Scratch<K> holders = scratch(pointScratch);
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

    @Override
    public final void prepareForInserts(long keys) {
        while (keys > 0 && !closed) {
            long held = count.get();
            long required = held + keys;
            if (required <= startThreshold) {
                return;
            }
            MapMigration<K> current = migration.get();
            if (current != null) {
                if (current.failure != null) {
                    return; // over budget already: the inserts' hard limit decides (53200 there, or a smaller growth)
                }
                finishGrowth(); // a growth under way: let it end, then size again from its map
                continue;
            }
            long from = capacity;
            long entries = (long) Math.ceil(required / PRESIZE_FILL);
            // Chronicle's memory grows about linearly with entries; a map that would take most of what
            // is left of the budget is not made up front (the rows need room): the inserts grow step by step.
            double estimatedBytes = (double) mapReservation / from * entries;
            if (estimatedBytes > PRESIZE_BUDGET_SHARE * (memory.limitBytes() - memory.allocatedBytes())) {
                return;
            }
            MapMigration<K> sized = new MapMigration<>(from, entries, held, held);
            if (!migration.compareAndSet(null, sized)) {
                continue;
            }
            sized.claimCreation(false);
            if (!create(sized)) {
                if (sized.failure == null) {
                    continue; // the index grew or closed meanwhile (create dropped it): look again
                }
                // Over budget after all: drop it, so that the inserts grow the index as without it.
                migration.compareAndSet(sized, null);
                sized.finish();
                return;
            }
            while (copyOneSegment(sized)) {
                // copy whatever nobody claimed (concurrent writers past the start fill help)
            }
            sized.awaitFinished();
            return;
        }
    }

    /** Called before inserting {@code extraKeys} keys, holding no lock: begins, paces or finishes a growth. */
    private void ensureRoom(long extraKeys) {
        long required = count.get() + extraKeys;
        if (required > startThreshold) {
            grow(required);
        }
    }

    private void grow(long required) {
        if (required > hardThreshold) {
            growNow(required);
            return;
        }
        MapMigration<K> current = migration.get();
        if (current == null) {
            MapMigration<K> started = newMigration(required);
            if (migration.compareAndSet(null, started)) {
                IndexGrowthThread.submit(() -> growInBackground(started));
            }
        } else if (current.isInstalled() && current.failure == null) {
            // Behind the pace that copies every segment by the deadline (the growth thread is busy
            // or starved): this writer copies one segment itself.
            long due = (long) current.segments * (required - current.startCount) / Math.max(1, current.deadlineCount - current.startCount);
            if (current.claimedSegments.get() < due) {
                copyOneSegment(current);
            }
        }
    }

    private MapMigration<K> newMigration(long required) {
        long from = capacity;
        long start = count.get();
        long deadline = start + (long) ((hardThreshold - start) * COPY_PACE);
        return new MapMigration<>(from, Math.max(from * 2, required * 2), start, deadline);
    }

    /** The growth thread's part: create and install the larger map, then copy until no segment is left. */
    private void growInBackground(MapMigration<K> growth) {
        try {
            if (!closed && growth.claimCreation(true) && create(growth)) {
                while (copyOneSegment(growth)) {
                    // each call copies one segment under the read lock, so the swap and close get their turn
                }
            }
        } catch (RuntimeException failure) {
            // Recorded in the migration (create, abandon); a writer at the hard limit retries and reports it.
        } finally {
            growth.backgroundEnded();
        }
    }

    /**
     * Finishes growing on the calling thread until {@code required} keys are below the hard limit:
     * creates the larger map when nobody is creating it, copies the segments nobody claimed, waits
     * for the swap. Throws what creating the map threw (53200 when over budget).
     */
    private void growNow(long required) {
        while (required > hardThreshold) {
            if (closed) {
                throw new IllegalStateException("index " + definition.constraintName() + " is closed");
            }
            MapMigration<K> current = migration.get();
            if (current == null || current.failure != null) {
                MapMigration<K> fresh = newMigration(required);
                if (!migration.compareAndSet(current, fresh)) {
                    continue;
                }
                fresh.claimCreation(false);
                if (!create(fresh)) {
                    if (fresh.failure != null) {
                        throw fresh.failure;
                    }
                    continue;
                }
                current = fresh;
            } else if (current.claimCreation(false)) {
                // Still queued behind another index's growth: create it here rather than wait.
                if (!create(current)) {
                    if (current.failure != null) {
                        throw current.failure;
                    }
                    continue;
                }
            } else {
                current.awaitCreation();
                if (!current.isInstalled()) {
                    continue; // failed (the next round retries here) or stale
                }
            }
            while (copyOneSegment(current)) {
                // copy whatever nobody claimed
            }
            current.awaitFinished();
        }
    }

    /**
     * Creates the migration's map and installs it as {@link #next}; false when creating failed
     * ({@link MapMigration#failure} set, the migration left in place so that only the hard limit
     * retries), or when the index closed or grew meanwhile (the map freed, the migration dropped).
     */
    private boolean create(MapMigration<K> growth) {
        ChronicleMap<K, LongCell> target;
        try {
            target = createReserved(growth.entries);
        } catch (RuntimeException | Error failure) {
            // Recorded before waiters wake: they rethrow it (53200 when over budget) or retry later.
            growth.failure = failure instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException("growing index " + definition.constraintName() + " failed", failure);
            growth.creationEnded();
            return false;
        }
        long reservation = target.offHeapMemoryUsed();
        boolean installed = false;
        long stamp = growthLock.writeLock();
        try {
            if (!closed && migration.get() == growth && capacity == growth.fromCapacity) {
                growth.install(target, reservation, map.segments());
                copying = growth;
                reserved = mapReservation + reservation;
                installed = true;
            }
        } finally {
            growthLock.unlockWrite(stamp);
        }
        if (!installed) {
            target.close();
            memory.release(MemoryTag.INDEXES, reservation);
            migration.compareAndSet(growth, null);
            growth.finish();
        }
        growth.creationEnded();
        return installed;
    }

    /** Copies the next unclaimed segment into the larger map; false when none is left or the growth ended. */
    private boolean copyOneSegment(MapMigration<K> growth) {
        int segment = growth.claimedSegments.getAndIncrement();
        if (segment >= growth.segments) {
            return false;
        }
        long stamp = growthLock.readLock();
        try {
            if (closed || migration.get() != growth) {
                return false;
            }
            Scratch<K> holders = scratch();
            // Marked before the copy takes the segment's lock (Chronicle's iteration takes it and lets
            // it go when done): a writer that, holding the lock, still sees the segment unmarked
            // writes before the copy reads the segment; one that sees it marked repeats its write.
            growth.markCopied(segment);
            try (MapSegmentContext<K, LongCell, ?> context = map.segmentContext(segment)) {
                context.forEachSegmentEntry(entry -> mirrorPut(entry.key().getUsing(holders.copyKey), entry.value().getUsing(holders.copyValue)));
            }
        } catch (RuntimeException | Error failure) {
            growthLock.unlockRead(stamp);
            abandon(growth, failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure));
            throw failure;
        }
        growthLock.unlockRead(stamp);
        if (growth.copiedSegments.incrementAndGet() == growth.segments) {
            swap(growth);
        }
        return true;
    }

    /**
     * Every segment copied: the larger map becomes the map, the old one is freed. The growth stays
     * current until the old map's memory is back, so that {@link #close} waits for it.
     */
    private void swap(MapMigration<K> growth) {
        ChronicleMap<K, LongCell> old;
        long oldReservation;
        long stamp = growthLock.writeLock();
        try {
            if (closed || migration.get() != growth) {
                return;
            }
            old = map;
            oldReservation = mapReservation;
            map = growth.target;
            mapReservation = growth.targetReservation;
            copying = null;
            reserved = mapReservation;
            setCapacity(growth.entries);
        } finally {
            growthLock.unlockWrite(stamp);
        }
        // Nobody can reach the old map any more: every operation reads the map under the read lock.
        old.close();
        memory.release(MemoryTag.INDEXES, oldReservation);
        migration.compareAndSet(growth, null);
        growth.finish();
    }

    /** A copy failed: drops the larger map and leaves the growth failed, for the hard limit to retry. */
    private void abandon(MapMigration<K> growth, RuntimeException failure) {
        long stamp = growthLock.writeLock();
        try {
            if (closed || migration.get() != growth) {
                return;
            }
            growth.failure = failure;
            copying = null;
            reserved = mapReservation;
            growth.target.close();
            memory.release(MemoryTag.INDEXES, growth.targetReservation);
        } finally {
            growthLock.unlockWrite(stamp);
            growth.finish();
        }
    }

    private void setCapacity(long entries) {
        capacity = entries;
        hardThreshold = (long) (entries * HARD_FILL);
        startThreshold = (long) (entries * START_FILL);
    }

    /**
     * Completes a growth in progress on the calling thread (creating, copying, swapping), so that
     * the index holds one map; for tests and maintenance. The caller holds no lock of the index.
     */
    final void finishGrowth() {
        MapMigration<K> current = migration.get();
        if (current == null) {
            return;
        }
        current.awaitCreation();
        if (current.claimCreation(false) && !create(current)) {
            return;
        }
        if (current.isInstalled() && current.failure == null) {
            while (copyOneSegment(current)) {
                // copy whatever nobody claimed
            }
            current.awaitFinished();
        }
    }

    /** Off-heap bytes Chronicle holds for the map and a growth's larger map (tiers allocated since creation included). */
    final long mapMemoryInUse() {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            return map.offHeapMemoryUsed() + (copying == null ? 0 : copying.target.offHeapMemoryUsed());
        } finally {
            growthLock.unlockRead(stamp);
        }
    }

    /** The capacity ({@code entries}) of the map in use. */
    final long capacity() {
        return capacity;
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

    /** A fresh index's empty map, made (and its memory reserved) ahead of {@link #replaceWithEmpty}. */
    static final class EmptyMap<K> {
        final ChronicleMap<K, LongCell> map;
        final long reservation;
        final long entries;

        private EmptyMap(ChronicleMap<K, LongCell> map, long reservation, long entries) {
            this.map = map;
            this.reservation = reservation;
            this.entries = entries;
        }
    }

    /** An empty map sized as {@link #open} sizes a new index's; 53200 (nothing held) when over the memory budget. */
    final EmptyMap<K> newEmptyMap() {
        long entries = definition.initialEntries();
        ChronicleMap<K, LongCell> created = createReserved(entries);
        return new EmptyMap<>(created, created.offHeapMemoryUsed(), entries);
    }

    /** Frees an empty map {@link #replaceWithEmpty} did not take. */
    final void discard(EmptyMap<?> empty) {
        empty.map.close();
        memory.release(MemoryTag.INDEXES, empty.reservation);
    }

    /** Whether every partition tag claimed on this index is one of {@code tags} (always, for an index no partition shares). */
    final boolean claimsOnly(BitSet tags) {
        synchronized (partitionTags) {
            BitSet others = (BitSet) partitionTags.clone();
            others.andNot(tags);
            return others.isEmpty();
        }
    }

    /**
     * TRUNCATE of every row whose key this index holds: {@code empty} becomes the map, and the old
     * map, and a growth's larger map, are freed (the growth is dropped, as {@link #close} drops it,
     * and waited for when the growth thread runs it), so the index holds what a new one holds. The
     * index object stays: prepared point lookups and upserts holding it see the empty map. Returns
     * false, having changed nothing, when a partition other than those tagged {@code tags} has
     * claimed a tag (its keys would go too). The caller keeps writers out of every partition of the
     * index; operations already running finish first (the growth lock's write side).
     */
    final boolean replaceWithEmpty(EmptyMap<K> empty, BitSet tags) {
        ChronicleMap<K, LongCell> old;
        long oldReservation;
        MapMigration<K> running;
        MapMigration<K> dropped;
        long stamp = growthLock.writeLock();
        try {
            checkOpen();
            if (!claimsOnly(tags)) {
                return false;
            }
            old = map;
            oldReservation = mapReservation;
            running = migration.getAndSet(null);
            dropped = copying;
            copying = null;
            map = empty.map;
            mapReservation = empty.reservation;
            reserved = mapReservation;
            count.set(0);
            setCapacity(empty.entries);
        } finally {
            growthLock.unlockWrite(stamp);
        }
        // Nobody can reach the old maps any more: every operation reads the map under the read lock.
        old.close();
        memory.release(MemoryTag.INDEXES, oldReservation);
        if (dropped != null) {
            dropped.target.close();
            memory.release(MemoryTag.INDEXES, dropped.targetReservation);
        }
        if (running != null) {
            running.finish();
            // A growth thread creating the larger map frees it on seeing the growth dropped: wait for that.
            if (!running.claimCreation(false) && running.createdInBackground()) {
                running.awaitBackground();
            }
        }
        return true;
    }

    /**
     * Removes every key whose row id carries one of {@code tags} ({@link PartitionUniqueIndex#tagOf}),
     * segment by segment under each segment's lock, repeating each removal into a growth's larger
     * map when the segment is copied already: TRUNCATE of those partitions when another partition
     * claimed a tag on the index after TRUNCATE decided to empty it whole.
     */
    final void removeTagged(BitSet tags) {
        long stamp = growthLock.readLock();
        try {
            checkOpen();
            Scratch<K> holders = scratch();
            for (int segment = 0; segment < map.segments(); segment++) {
                int segmentIndex = segment;
                try (MapSegmentContext<K, LongCell, ?> context = map.segmentContext(segment)) {
                    context.forEachSegmentEntry(entry -> {
                        if (tags.get(PartitionUniqueIndex.tagOf(entry.value().getUsing(holders.copyValue).value))) {
                            K key = entry.key().getUsing(holders.copyKey);
                            entry.doRemove();
                            count.decrementAndGet();
                            // Checked holding the segment's lock, as writers check it (see copyOneSegment).
                            if (copying != null && copying.isCopied(segmentIndex)) {
                                mirrorRemove(key);
                            }
                        }
                    });
                }
            }
        } finally {
            growthLock.unlockRead(stamp);
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
        MapMigration<K> running;
        long stamp = growthLock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            map.close();
            memory.release(MemoryTag.INDEXES, mapReservation);
            running = migration.getAndSet(null);
            if (copying != null) {
                copying.target.close();
                memory.release(MemoryTag.INDEXES, copying.targetReservation);
                copying = null;
            }
            mapReservation = 0;
            reserved = 0;
        } finally {
            growthLock.unlockWrite(stamp);
        }
        if (running != null) {
            running.finish();
            // A growth thread that took up this growth frees what it holds when it sees the index
            // closed: wait for that, so that the memory is back when close returns. One that has not
            // started will find the creation claimed and do nothing.
            if (!running.claimCreation(false) && running.createdInBackground()) {
                running.awaitBackground();
            }
        }
    }
}
