package dev.parallax.engine.index;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A partition's share of its partitioned table's unique index: the partition's constraint (named
 * as PostgreSQL names a partition's index, e.g. {@code p_0_pkey}) whose keys live in the one
 * Chronicle Map of the whole table. The map's value is a table row id: this partition's tag and
 * the row's (page, slot), so one lookup answers "which partition, which row". Callers see the
 * partition's own row ids ({@link RowIds}); the share translates, and a key held by another
 * partition is absent here (a scan of every partition with pruning off finds each row once).
 *
 * <p>Why one map per table and not per partition: Chronicle keeps one query context per thread and
 * re-binds it whenever consecutive operations hit different maps, so with 1024 partitions nearly
 * every random point lookup paid that set-up and its cache misses (partitioned/single 0.66 for
 * point selects and 0.51 for upserts, PointSelectBenchmark/UpsertBenchmark, 10M rows, before this).
 *
 * <p>A unique key of a partitioned table includes every partition key column (PostgreSQL's rule,
 * checked at CREATE TABLE), so all rows with one key value route to one partition: uniqueness
 * across the table is uniqueness per partition, as in PostgreSQL, and only that partition's writers
 * (who hold its storage's write lock) ever change the key's entry.
 *
 * <p>Table row ids: tag (bits 47-62, {@value #MAXIMUM_PARTITIONS} tags), page (bits 20-46) and slot
 * (bits 0-19): a partition may hold 2^27 pages of at most 2^20 slots (54000 beyond: far above the
 * default 128 KB pages). Errors name this partition's constraint and relation, as PostgreSQL
 * reports a violation on the leaf partition's index. Dropping the partition removes its keys
 * ({@link #removeKeys}); closing a share frees its tag, never the table's index, which the
 * partitioned table owns.
 */
public final class PartitionUniqueIndex implements UniqueIndex {
    /** Partitions that can share one table index at once. */
    public static final int MAXIMUM_PARTITIONS = 1 << 16;
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(PartitionUniqueIndex.class, "count", long.class);
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    private static final int TAG_SHIFT = 47;
    private static final int PAGE_SHIFT = 20;
    private static final long PAGE_LIMIT = 1L << (TAG_SHIFT - PAGE_SHIFT);
    private static final long SLOT_LIMIT = 1L << PAGE_SHIFT;

    /** Replaced only by {@link #renameKeyColumn}. */
    private volatile IndexDefinition definition;
    private final KeyEncoder encoder;
    private final ChronicleUniqueIndex<?> tableIndex;
    private final LongKeyIndex longTableIndex;
    private final int tag;
    private final long taggedBase;
    /**
     * Keys of this partition in the table's index ({@link #COUNT}, changed by {@link #addToCount}):
     * a field of this object rather than an AtomicLong of its own, one cache line fewer per write
     * when writes land on another partition each time (upserts into 1024 partitions).
     */
    private volatile long count;
    /**
     * Per-thread scratch for translating a batch's row ids, one for all shares: a ThreadLocal per
     * share gave each loading thread 1024 map entries and arrays (up to a batch of row ids each) on
     * a table of 1024 partitions, for as long as the thread lived.
     */
    private static final ThreadLocal<long[]> TRANSLATED = ThreadLocal.withInitial(() -> new long[16]);
    private boolean closed;

    PartitionUniqueIndex(IndexDefinition definition, ChronicleUniqueIndex<?> tableIndex) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.tableIndex = Objects.requireNonNull(tableIndex, "tableIndex");
        if (!definition.columnTypes().equals(tableIndex.definition().columnTypes())
                || definition.primaryKey() != tableIndex.definition().primaryKey()) {
            throw new IllegalArgumentException("partition index " + definition.constraintName()
                    + " does not match its table's index " + tableIndex.definition().constraintName());
        }
        this.encoder = new KeyEncoder(definition);
        this.longTableIndex = tableIndex instanceof LongKeyIndex longKeys ? longKeys : null;
        this.tag = tableIndex.claimPartitionTag();
        this.taggedBase = (long) tag << TAG_SHIFT;
    }

    /** The partitioned table's index holding this share's keys. */
    public UniqueIndex tableIndex() {
        return tableIndex;
    }

    /** This partition's unboxed point lookup when the table index is keyed by one long-held column, else null. */
    LongKeyLookup longKeys() {
        return longTableIndex == null ? null : this::get;
    }

    /** Row id in this partition of {@code key} (a table keyed by one long-held column), or {@link RowIds#ABSENT}. */
    private long get(long key) {
        return toPartition(longTableIndex.get(key));
    }

    /** The table row id of this partition's {@code rowId}; 54000 when its page or slot does not fit. */
    private long toTable(long rowId) {
        long page = rowId >>> 32;
        long slot = rowId & 0xFFFF_FFFFL;
        if (page >= PAGE_LIMIT || slot >= SLOT_LIMIT) {
            throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "row (%d,%d) of partition \"%s\" is beyond what index \"%s\" can address",
                    page, slot, definition.relationName(), tableIndex.definition().constraintName());
        }
        return taggedBase | page << PAGE_SHIFT | slot;
    }

    /** This partition's row id for a table row id, or {@link RowIds#ABSENT} when it is absent or another partition's. */
    private long toPartition(long tableRowId) {
        return partitionRowId(tableRowId, tag);
    }

    /**
     * This share's tag: the partition it names in the row ids of the table's index (see
     * {@link #partitionRowId}). Fixed for the share's life.
     */
    public int tag() {
        return tag;
    }

    /**
     * The row id, in its partition's storage, that {@code tableRowId} (an answer of the table's
     * index, {@link #tableIndex()}) names when it belongs to the partition tagged {@code tag}; else
     * (absent, or another partition's row) {@link RowIds#ABSENT}. What {@link #get} answers, for a
     * caller that keeps the tags of many partitions and asks the table index itself.
     */
    public static long partitionRowId(long tableRowId, int tag) {
        if (tableRowId == RowIds.ABSENT || tableRowId >>> TAG_SHIFT != tag) {
            return RowIds.ABSENT;
        }
        return ((tableRowId >>> PAGE_SHIFT) & (PAGE_LIMIT - 1)) << 32 | (tableRowId & (SLOT_LIMIT - 1));
    }

    /** The tag of the partition a table row id names. */
    static int tagOf(long tableRowId) {
        return (int) (tableRowId >>> TAG_SHIFT);
    }

    @Override
    public IndexDefinition definition() {
        return definition;
    }

    @Override
    public void renameKeyColumn(int keyPosition, String newName) {
        definition = definition.withColumnName(keyPosition, newName);
        encoder.renamed(definition);
    }

    /** Keys of this partition held in the table's index. */
    @Override
    public long size() {
        return count;
    }

    @Override
    public long get(Batch keys, int[] keyColumns, int position) {
        return get(keys, keyColumns, position, null);
    }

    /** {@inheritDoc} The table index's scratch, which serves every partition sharing it. */
    @Override
    public Object newPointScratch() {
        return tableIndex.newPointScratch();
    }

    @Override
    public long get(Batch keys, int[] keyColumns, int position, Object scratch) {
        return toPartition(tableIndex.get(keys, keyColumns, position, scratch));
    }

    @Override
    public boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId) {
        return putIfAbsent(keys, keyColumns, position, rowId, null);
    }

    @Override
    public boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId, Object scratch) {
        boolean put = tableIndex.putIfAbsent(keys, keyColumns, position, toTable(rowId), encoder, scratch);
        // The table index's encoder: the same key types, and shared by all partitions (in cache).
        if (put && !tableIndex.encoder.hasNull(keys, keyColumns, position)) {
            addToCount(1);
        }
        return put;
    }

    @Override
    public boolean replace(Batch keys, int[] keyColumns, int position, long expectedRowId, long newRowId) {
        return tableIndex.replace(keys, keyColumns, position, toTable(expectedRowId), toTable(newRowId));
    }

    @Override
    public boolean remove(Batch keys, int[] keyColumns, int position, long expectedRowId) {
        boolean removed = tableIndex.remove(keys, keyColumns, position, toTable(expectedRowId));
        if (removed) {
            addToCount(-1);
        }
        return removed;
    }

    @Override
    public void lookup(Batch keys, int[] keyColumns, long[] rowIdsOut) {
        tableIndex.lookup(keys, keyColumns, rowIdsOut);
        int live = keys.selectedCount();
        int[] selection = keys.selection();
        for (int index = 0; index < live; index++) {
            int position = selection == null ? index : selection[index];
            rowIdsOut[position] = toPartition(rowIdsOut[position]);
        }
    }

    @Override
    public void insertAll(Batch rows, int[] keyColumns, long[] rowIds) {
        int live = rows.selectedCount();
        int[] selection = rows.selection();
        long[] tableRowIds = TRANSLATED.get();
        int positions = selection == null ? live : live == 0 ? 0 : selection[live - 1] + 1;
        if (tableRowIds.length < positions) {
            tableRowIds = new long[Math.max(positions, tableRowIds.length * 2)];
            TRANSLATED.set(tableRowIds);
        }
        for (int index = 0; index < live; index++) {
            int position = selection == null ? index : selection[index];
            tableRowIds[position] = toTable(rowIds[position]);
        }
        addToCount(tableIndex.insertAll(rows, keyColumns, tableRowIds, encoder));
    }

    /** Sizes the table's index, which holds the keys of every partition. */
    @Override
    public void prepareForInserts(long keys) {
        tableIndex.prepareForInserts(keys);
    }

    @Override
    public ParallaxException duplicateKeyError(Batch keys, int[] keyColumns, int position) {
        return encoder.duplicate(keys, keyColumns, position);
    }

    /** None of its own: the table's index holds the memory (see {@link #tableIndex()}). */
    @Override
    public long reservedBytes() {
        return 0;
    }

    /**
     * Removes from the table's index the key of every live row of {@code storage} (this partition's
     * rows; {@code tableKeyColumns} the key's columns in its rows), each only while it points at
     * that row: a partition being dropped takes its keys with it, so a partition attached later
     * can hold them again. Nothing to do when the table's index is closed (the whole table is being
     * dropped). The caller makes sure no statement writes the partition meanwhile (it is out of the catalog).
     */
    public void removeKeys(TableStorage storage, int[] tableKeyColumns) {
        if (tableIndex.isClosed() || count == 0) {
            return;
        }
        List<DataType> types = new ArrayList<>(tableKeyColumns.length);
        int[] batchColumns = new int[tableKeyColumns.length];
        for (int key = 0; key < tableKeyColumns.length; key++) {
            types.add(storage.columnTypes().get(tableKeyColumns[key]));
            batchColumns[key] = key;
        }
        Batch keys = Batch.create(types, Batch.DEFAULT_CAPACITY);
        int[] slots = new int[storage.pageSlotCapacity()];
        int pages = storage.pageCount();
        for (int pageIndex = 0; pageIndex < pages; pageIndex++) {
            int rows = storage.readPage(pageIndex, tableKeyColumns, keys, null, slots);
            for (int row = 0; row < rows; row++) {
                remove(keys, batchColumns, row, RowIds.pack(pageIndex, slots[row]));
            }
        }
    }

    /**
     * Adds {@code delta} to {@link #count} without an atomic update: the count changes only where
     * this partition's keys change, by its writers, who hold the partition storage's write lock
     * (the rule the class comment states for the keys themselves), or with writers kept out (DROP,
     * TRUNCATE). A lock-prefixed add waited for this line, cold when each upsert lands on another of
     * 1024 partitions, and for the stores before it: one JVM, 10M rows, 200 rounds of 20,000 upserts
     * rotating, p/test CPU per upsert 0.906 with the atomic add, 0.925 without.
     */
    private void addToCount(long delta) {
        COUNT.setRelease(this, count + delta);
    }

    /** The table's index emptied whole (every partition truncated): this partition holds no key there any more. */
    void keysEmptied() {
        COUNT.setVolatile(this, 0L);
    }

    /**
     * Frees this partition's tag for a later partition (call {@link #removeKeys} first while the
     * table's index is open; a tag that still has keys there stays taken). Never closes the table's index: the partitioned table does. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            // A tag whose keys are still in an open table index is never handed out again: a later
            // partition would otherwise see them as its own rows.
            if (count == 0 || tableIndex.isClosed()) {
                tableIndex.releasePartitionTag(tag);
            }
        }
    }
}
