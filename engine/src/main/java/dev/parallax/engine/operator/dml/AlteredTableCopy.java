package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.ArrayList;
import java.util.List;

/**
 * The rewrite of ALTER TABLE ... ADD / DROP COLUMN and SET NOT NULL: copies every live row of a
 * table into the table built to replace it (new column list, its own keys), page by page, through
 * {@link TableAppender} so the replacement's unique indexes fill as they would on INSERT. The
 * replacement is not in the catalog yet: a failure (23502, 23505, out of memory, cancel) leaves the
 * original untouched, and the caller frees the replacement.
 */
public final class AlteredTableCopy {
    private AlteredTableCopy() {
    }

    /** The values of the columns ALTER TABLE adds, for the existing rows, in the order they are copied. */
    public interface AddedValues {
        /**
         * Writes the values of the next {@code count} rows to positions {@code 0..count-1} of
         * {@code targets}, one vector per added column in the replacement's column order, each of
         * its column's type and already reset to {@code count} rows.
         */
        void fill(ColumnVector[] targets, int count);
    }

    /**
     * Copies the live rows of {@code from} (of its partitions, in partition order, when partitioned)
     * into {@code to}: column i of {@code to} takes column {@code sourceColumns[i]} of {@code from},
     * or when that is -1 the next value {@code added} gives. A NULL in a NOT NULL column of
     * {@code to} is PostgreSQL's 23502 {@code column "c" of relation "t" contains null values}.
     * The caller holds {@code from}'s storages exclusively. Returns the rows copied.
     */
    public static long copy(Table from, Table to, int[] sourceColumns, AddedValues added, ExecutionContext context) {
        List<ColumnDefinition> columns = to.columns();
        int addedCount = 0;
        for (int source : sourceColumns) {
            if (source < 0) {
                addedCount++;
            }
        }
        int[] allColumns = new int[from.columns().size()];
        for (int column = 0; column < allColumns.length; column++) {
            allColumns[column] = column;
        }
        Batch read = Batch.create(from.columnTypes(), Batch.DEFAULT_CAPACITY);
        ColumnVector[] addedVectors = new ColumnVector[addedCount];
        int addedIndex = 0;
        for (int column = 0; column < sourceColumns.length; column++) {
            if (sourceColumns[column] < 0) {
                addedVectors[addedIndex++] = ColumnVector.create(columns.get(column).type(), Batch.DEFAULT_CAPACITY);
            }
        }
        List<Table> sources = new ArrayList<>();
        if (from.isPartitioned()) {
            sources.addAll(from.partitionRouter().partitions());
        } else {
            sources.add(from);
        }
        long copied = 0;
        ColumnVector[] targetVectors = new ColumnVector[sourceColumns.length];
        for (Table source : sources) {
            TableStorage storage = source.storage();
            int pages = storage.pageCount();
            for (int page = 0; page < pages; page++) {
                context.checkCancelled();
                int rows = storage.readPage(page, allColumns, read);
                if (rows == 0) {
                    continue;
                }
                for (ColumnVector vector : addedVectors) {
                    vector.ensureCapacity(rows);
                    vector.reset(rows);
                }
                if (addedCount > 0) {
                    added.fill(addedVectors, rows);
                }
                addedIndex = 0;
                for (int column = 0; column < sourceColumns.length; column++) {
                    targetVectors[column] = sourceColumns[column] >= 0 ? read.column(sourceColumns[column]) : addedVectors[addedIndex++];
                }
                Batch target = new Batch(targetVectors.clone());
                target.setRowCount(rows);
                checkNotNull(to, target, rows);
                TableAppender.appendAll(to, List.of(target));
                copied += rows;
            }
        }
        return copied;
    }

    private static void checkNotNull(Table to, Batch batch, int rows) {
        List<ColumnDefinition> columns = to.columns();
        for (int column = 0; column < columns.size(); column++) {
            ColumnVector vector = batch.column(column);
            if (!columns.get(column).notNull() || !vector.mayHaveNulls()) {
                continue;
            }
            for (int row = 0; row < rows; row++) {
                if (vector.isNull(row)) {
                    throw ParallaxException.of(SqlState.NOT_NULL_VIOLATION, "column \"%s\" of relation \"%s\" contains null values",
                            columns.get(column).name(), to.name());
                }
            }
        }
    }
}
