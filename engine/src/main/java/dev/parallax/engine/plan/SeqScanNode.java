package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * Reads table columns {@code columns} (output column i = table column columns[i]). When
 * {@code parallel}, it is a Parallel Seq Scan: all participants of the enclosing Gather share one
 * {@link dev.parallax.engine.storage.ScanCursor} and each claims chunks of pages from it.
 *
 * <p>Two pseudo-columns may follow the table columns, for an UPDATE or DELETE whose target rows
 * come out of a plan (a join, a semi join): {@link #ROW_ID}, the row's id in its table (PostgreSQL's
 * ctid), and {@link #PARTITION_ORDINAL}, the ordinal of the scanned partition in its parent (0 for a
 * plain table; PostgreSQL's tableoid). The modifying operator finds each row it changes by them.
 */
public record SeqScanNode(Table table, int[] columns, boolean parallel, PlanEstimate estimate) implements PlanNode {
    /** The pseudo-column of the row's id (BIGINT, {@link dev.parallax.engine.index.RowIds}). */
    public static final int ROW_ID = -1;
    /** The pseudo-column of the scanned table's ordinal among its parent's partitions (INTEGER; 0 for a plain table). */
    public static final int PARTITION_ORDINAL = -2;

    public SeqScanNode {
        columns = columns.clone();
        boolean pseudo = false;
        for (int column : columns) {
            if (column == ROW_ID || column == PARTITION_ORDINAL) {
                pseudo = true;
            } else if (column < 0 || pseudo) {
                throw new IllegalArgumentException("table columns come before the pseudo-columns: " + Arrays.toString(columns));
            }
        }
    }

    /** The type of output column {@code column} of a scan of {@code table}: a table column's, or a pseudo-column's. */
    public static DataType columnType(Table table, int column) {
        return switch (column) {
            case ROW_ID -> DataType.BIGINT;
            case PARTITION_ORDINAL -> DataType.INTEGER;
            default -> table.columns().get(column).type();
        };
    }

    /** Whether the scan reads {@link #ROW_ID} or {@link #PARTITION_ORDINAL}. */
    public boolean readsPseudoColumns() {
        return columns.length > 0 && columns[columns.length - 1] < 0;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public List<DataType> outputTypes() {
        return Arrays.stream(columns).mapToObj(index -> columnType(table, index)).toList();
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }
}
