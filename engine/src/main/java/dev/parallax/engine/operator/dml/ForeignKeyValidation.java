package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * ALTER TABLE ... ADD FOREIGN KEY's check of the rows the referencing table holds: each row whose
 * key columns are all non-NULL must find its key, converted to the referenced columns' types
 * ({@link ReferencedKeyProbe}), in the referenced key's index (one point lookup a row), else 23503
 * as an INSERT of that row would raise, naming the first such row in scan order.
 */
public final class ForeignKeyValidation {
    private ForeignKeyValidation() {
    }

    /**
     * Appends {@code batches} to {@code table} (COPY FROM) once the key of every live row passed each
     * of the table's foreign keys, holding their locks shared meanwhile (as an INSERT does); a key
     * may also be one of the appended rows' own (a self-referencing table). 23503 appends nothing.
     */
    static void appendChecked(Table table, List<Batch> batches) {
        List<ForeignKey> keys = new ArrayList<>(table.foreignKeys());
        keys.sort(Comparator.comparingLong(ForeignKey::objectId));
        for (ForeignKey key : keys) {
            key.lock().readLock().lock();
        }
        try {
            for (ForeignKey key : keys) {
                List<KeyPositions> ownKeys = key.referenced() == table ? ownKeys(batches, key.referencedColumns()) : List.of();
                PagedTableStorage referenced = (PagedTableStorage) key.referenced().storage();
                ReferencedKeyProbe probe = new ReferencedKeyProbe(key);
                for (Batch batch : batches) {
                    for (int index = 0; index < batch.selectedCount(); index++) {
                        int row = batch.position(index);
                        if (ForeignKeyEnforcement.anyNull(batch, row, key.referencingColumns())) {
                            ForeignKeyEnforcement.requireNotMixed(key, batch, row);
                            continue;
                        }
                        boolean present = false;
                        if (probe.load(batch, row)) {
                            long rowId = probe.find();
                            // A parent whose insert is not published yet may still be given up: not a parent yet.
                            present = rowId != RowIds.ABSENT && referenced.isPublished(rowId)
                                    || holdsAny(ownKeys, probe.keyRows(), probe.keyRow(), probe.keyColumns());
                        }
                        if (!present) {
                            throw ForeignKeyEnforcement.notPresent(key, batch, row);
                        }
                    }
                }
            }
            TableAppender.appendUnchecked(table, batches);
        } finally {
            for (int index = keys.size() - 1; index >= 0; index--) {
                keys.get(index).lock().readLock().unlock();
            }
        }
    }

    /** The keys in {@code columns} of the live rows of {@code batches}, one map a batch. */
    private static List<KeyPositions> ownKeys(List<Batch> batches, int[] columns) {
        List<KeyPositions> keys = new ArrayList<>();
        for (Batch batch : batches) {
            KeyPositions batchKeys = new KeyPositions(batch, columns, batch.selectedCount());
            for (int index = 0; index < batch.selectedCount(); index++) {
                int row = batch.position(index);
                if (!ForeignKeyEnforcement.anyNull(batch, row, columns)) {
                    batchKeys.putIfAbsent(row);
                }
            }
            keys.add(batchKeys);
        }
        return keys;
    }

    private static boolean holdsAny(List<KeyPositions> keys, Batch rows, int row, int[] columns) {
        for (KeyPositions batchKeys : keys) {
            if (batchKeys.get(rows, row, columns) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Checks every row of {@code key}'s referencing table; {@code checkCancelled} runs once a page. */
    public static void requireReferencedKeys(ForeignKey key, Runnable checkCancelled) {
        Table child = key.referencing();
        PagedTableStorage storage = (PagedTableStorage) child.storage();
        int[] allColumns = new int[child.columnTypes().size()];
        Arrays.setAll(allColumns, column -> column);
        Batch page = Batch.create(child.columnTypes(), Batch.DEFAULT_CAPACITY);
        int[] slots = new int[storage.pageSlotCapacity()];
        ScanSnapshot snapshot = storage.snapshot();
        int[] referencing = key.referencingColumns();
        ReferencedKeyProbe probe = new ReferencedKeyProbe(key);
        for (int pageIndex = 0; pageIndex < snapshot.pageCount(); pageIndex++) {
            checkCancelled.run();
            int rows = storage.readPage(pageIndex, allColumns, page, snapshot, slots);
            for (int row = 0; row < rows; row++) {
                if (ForeignKeyEnforcement.anyNull(page, row, referencing)) {
                    ForeignKeyEnforcement.requireNotMixed(key, page, row);
                    continue;
                }
                if (!probe.load(page, row) || probe.find() == RowIds.ABSENT) {
                    throw ForeignKeyEnforcement.notPresent(key, page, row);
                }
            }
        }
    }
}
