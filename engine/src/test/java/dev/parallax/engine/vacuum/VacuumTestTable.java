package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.operator.dml.TableAppender;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A table {@code t (id bigint primary key, name text, amount integer)} in small pages (one page
 * per slab, so freed pages show in the memory manager at once), with helpers to insert, delete by
 * key and read the contents.
 */
final class VacuumTestTable implements AutoCloseable {
    static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.TEXT, DataType.INTEGER);
    static final int PAGE_BYTES = 4096;
    /** What one page (a slab of one page: the page and its stagger) takes from the memory budget. */
    static final long SLAB_BYTES = PAGE_BYTES + PageAllocator.PAGE_STAGGER;

    final MemoryManager memory = new MemoryManager(256L << 20);
    final PageAllocator allocator = new PageAllocator(memory, PAGE_BYTES, 1);
    final PagedTableStorage storage = new PagedTableStorage(TYPES, allocator);
    final Table table;

    VacuumTestTable(boolean primaryKey) {
        this(primaryKey, "t");
    }

    VacuumTestTable(boolean primaryKey, String name) {
        table = new Table(name, List.of(new ColumnDefinition("id", DataType.BIGINT, primaryKey),
                new ColumnDefinition("name", DataType.TEXT, false), new ColumnDefinition("amount", DataType.INTEGER, false)), storage);
        if (primaryKey) {
            table.addUniqueConstraint(new UniqueConstraint(UniqueIndexes.create(
                    IndexDefinition.primaryKey(name, List.of("id"), List.of(DataType.BIGINT)), memory), new int[] {0}));
        }
    }

    /** The name row {@code id} gets: lengths vary so that heap space matters. */
    static String name(long id, long version) {
        return "name-" + id + "-" + version + "x".repeat((int) (id % 23));
    }

    /** Inserts rows {@code first .. first+count} with version {@code version}. */
    void insert(long first, int count, long version) {
        Batch batch = Batch.create(TYPES, count);
        for (int index = 0; index < count; index++) {
            long id = first + index;
            ((LongVector) batch.column(0)).set(index, id);
            ((BytesVector) batch.column(1)).set(index, name(id, version).getBytes(StandardCharsets.UTF_8));
            ((LongVector) batch.column(2)).set(index, id * 3 + version);
        }
        batch.setRowCount(count);
        TableAppender.appendAll(table, List.of(batch));
    }

    /** Inserts the rows of {@code ids}, in that order, with version 0, as one append. */
    void insertIds(List<Long> ids) {
        Batch batch = Batch.create(TYPES, ids.size());
        for (int index = 0; index < ids.size(); index++) {
            long id = ids.get(index);
            ((LongVector) batch.column(0)).set(index, id);
            ((BytesVector) batch.column(1)).set(index, name(id, 0).getBytes(StandardCharsets.UTF_8));
            ((LongVector) batch.column(2)).set(index, id * 3);
        }
        batch.setRowCount(ids.size());
        TableAppender.appendAll(table, List.of(batch));
    }

    /** Deletes the row with key {@code id} through the primary key, row ids pinned as DML must; false when absent. */
    boolean deleteByKey(long id) {
        Batch key = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) key.column(0)).set(0, id);
        key.setRowCount(1);
        long stamp = table.rowIdLock().pin();
        try {
            UniqueConstraint primaryKey = table.uniqueConstraints().getFirst();
            long rowId = primaryKey.index().get(key, new int[] {0}, 0);
            if (rowId == RowIds.ABSENT) {
                return false;
            }
            boolean deleted = storage.delete(RowIds.pageIndex(rowId), RowIds.row(rowId));
            primaryKey.index().remove(key, new int[] {0}, 0, rowId);
            return deleted;
        } finally {
            table.rowIdLock().unpin(stamp);
        }
    }

    /** Deletes every live row whose id satisfies {@code predicate}, scanning slots (no index). */
    long deleteWhere(java.util.function.LongPredicate predicate) {
        long deleted = 0;
        Batch ids = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
        for (int page = 0; page < storage.pageCount(); page++) {
            if (storage.isHole(page)) {
                continue;
            }
            int slots = storage.pageRowSlots(page);
            int[] all = new int[slots];
            for (int slot = 0; slot < slots; slot++) {
                all[slot] = slot;
            }
            storage.readSlots(page, all, slots, new int[] {0}, ids);
            for (int slot = 0; slot < slots; slot++) {
                if (!storage.isDeleted(page, slot) && predicate.test(((LongVector) ids.column(0)).get(slot))) {
                    storage.delete(page, slot);
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** The contents by id: "name|amount". Fails on a duplicate id. */
    Map<Long, String> contents() {
        Map<Long, String> rows = new TreeMap<>();
        Batch batch = Batch.create(TYPES, Batch.DEFAULT_CAPACITY);
        int pages = storage.pageCount();
        for (int page = 0; page < pages; page++) {
            int count = storage.readPage(page, new int[] {0, 1, 2}, batch);
            for (int row = 0; row < count; row++) {
                long id = ((LongVector) batch.column(0)).get(row);
                String value = ((BytesVector) batch.column(1)).getString(row) + "|" + ((LongVector) batch.column(2)).get(row);
                if (rows.put(id, value) != null) {
                    throw new AssertionError("id " + id + " twice");
                }
            }
        }
        return rows;
    }

    /** Sum of ids over one scan, and the row count (packed: count in the high bits is not needed; two values). */
    long[] scanCountAndSum() {
        Batch batch = Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY);
        int pages = storage.pageCount();
        long count = 0;
        long sum = 0;
        for (int page = 0; page < pages; page++) {
            int rows = storage.readPage(page, new int[] {0}, batch);
            long[] ids = ((LongVector) batch.column(0)).values();
            for (int row = 0; row < rows; row++) {
                sum += ids[row];
            }
            count += rows;
        }
        return new long[] {count, sum};
    }

    @Override
    public void close() {
        table.closeUniqueConstraints();
        storage.close();
        allocator.close();
    }
}
