package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.partition.PartitionedAppender;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Appends rows to a table, all or nothing, enforcing its PRIMARY KEY and UNIQUE constraints: the
 * rows are written to storage, their keys go into every constraint's index with the rows' final
 * row ids, and only then are the rows published. A duplicate key (23505) or NULL primary key (23502)
 * removes the keys already added and abandons the append, so neither the table nor any index changes.
 */
public final class TableAppender {
    private TableAppender() {
    }

    /**
     * Appends the live rows of {@code batches} to {@code table}; see the class comment. The table's
     * unique indexes are first sized for the rows ({@link UniqueIndex#prepareForInserts}): the whole
     * input is collected before the append, so the count is exact.
     */
    public static void appendAll(Table table, List<Batch> batches) {
        if (!table.foreignKeys().isEmpty()) {
            // COPY into a referencing table: every row's key is checked first, under the keys' locks.
            ForeignKeyValidation.appendChecked(table, batches);
            return;
        }
        appendUnchecked(table, batches);
    }

    /** {@link #appendAll} without the foreign key checks (the caller made them). */
    static void appendUnchecked(Table table, List<Batch> batches) {
        if (table.isPartitioned()) {
            long rows = liveRows(batches);
            for (PartitionedConstraint constraint : table.partitionedConstraints()) {
                constraint.index().prepareForInserts(rows);
            }
            PartitionedAppender.appendAll(table, batches);
            return;
        }
        List<UniqueConstraint> constraints = table.uniqueConstraints();
        if (constraints.isEmpty()) {
            table.storage().appendAll(batches);
            return;
        }
        if (!(table.storage() instanceof PagedTableStorage storage)) {
            throw new IllegalStateException("table " + table.name() + " has unique constraints but no paged storage");
        }
        long rows = liveRows(batches);
        for (UniqueConstraint constraint : constraints) {
            constraint.index().prepareForInserts(rows);
        }
        storage.appendAll(batches, (placed, rowIds) -> insertKeys(constraints, placed, rowIds));
    }

    private static long liveRows(List<Batch> batches) {
        long rows = 0;
        for (Batch batch : batches) {
            rows += batch.selectedCount();
        }
        return rows;
    }

    /**
     * Inserts the keys of the placed rows into every constraint's index, all or nothing: on failure
     * the keys this call added are removed again and the failure is rethrown.
     */
    public static void insertKeys(List<UniqueConstraint> constraints, List<Batch> batches, long[][] rowIds) {
        int constraintIndex = 0;
        int batchIndex = 0;
        try {
            for (; constraintIndex < constraints.size(); constraintIndex++) {
                UniqueConstraint constraint = constraints.get(constraintIndex);
                int[] keyColumns = constraint.keyColumns();
                for (batchIndex = 0; batchIndex < batches.size(); batchIndex++) {
                    // insertAll is all or nothing per call; earlier calls are undone below.
                    constraint.index().insertAll(batches.get(batchIndex), keyColumns, rowIds[batchIndex]);
                }
            }
        } catch (RuntimeException | Error failure) {
            for (int undone = 0; undone <= constraintIndex && undone < constraints.size(); undone++) {
                UniqueConstraint constraint = constraints.get(undone);
                int[] keyColumns = constraint.keyColumns();
                int batchesInserted = undone < constraintIndex ? batches.size() : batchIndex;
                for (int batch = 0; batch < batchesInserted; batch++) {
                    removeKeys(constraint, keyColumns, batches.get(batch), rowIds[batch]);
                }
            }
            throw failure;
        }
    }

    private static void removeKeys(UniqueConstraint constraint, int[] keyColumns, Batch batch, long[] rowIds) {
        for (int index = 0; index < batch.selectedCount(); index++) {
            int position = batch.position(index);
            constraint.index().remove(batch, keyColumns, position, rowIds[position]);
        }
    }
}
