package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.storage.TableRewriteListener;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Keeps a table's unique indexes in step with a rewrite of its pages: follows the rows into their
 * new pages (VACUUM FULL) and drops the entries of rows that went away (VACUUM FULL's dead rows,
 * every row of a TRUNCATE). Called under the storage's write lock, by one thread.
 */
final class UniqueKeyRewriter implements TableRewriteListener {
    private final List<UniqueConstraint> constraints;
    private long entriesMoved;

    UniqueKeyRewriter(List<UniqueConstraint> constraints) {
        this.constraints = constraints;
    }

    /** Index entries repointed at a row's new place so far. */
    long entriesMoved() {
        return entriesMoved;
    }

    @Override
    public void rowsMoved(Batch rows, long[] fromRowIds, long[] toRowIds, int count) {
        for (UniqueConstraint constraint : constraints) {
            // The batch holds every column in table order: key columns address it directly.
            int[] keyColumns = constraint.keyColumns();
            for (int row = 0; row < count; row++) {
                if (fromRowIds[row] != toRowIds[row]
                        && constraint.index().replace(rows, keyColumns, row, fromRowIds[row], toRowIds[row])) {
                    entriesMoved++;
                }
            }
        }
    }

    @Override
    public void rowsRemoved(Batch rows, long[] rowIds, int count) {
        for (UniqueConstraint constraint : constraints) {
            int[] keyColumns = constraint.keyColumns();
            for (int row = 0; row < count; row++) {
                // Only when the key still names this row: a dead row's newer version usually holds it.
                constraint.index().remove(rows, keyColumns, row, rowIds[row]);
            }
        }
    }
}
