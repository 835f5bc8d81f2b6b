package dev.parallax.engine.vector;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * A group of rows in columnar form, the unit every operator consumes and produces.
 * Positions {@code 0 .. rowCount-1} hold values. When {@link #selection()} is non-null only the
 * positions it lists (ascending, {@link #selectedCount()} of them) are live rows: a filter marks
 * rows instead of copying them, and every consumer honours the selection.
 * A batch returned by an operator stays valid only until that operator's next call.
 */
public final class Batch {
    /** Rows per batch that operators aim for: a page's worth, small enough to stay in cache. */
    public static final int DEFAULT_CAPACITY = 4096;

    private final ColumnVector[] columns;
    private int rowCount;
    private int[] selection;
    private int selectedCount;

    public Batch(ColumnVector[] columns) {
        this.columns = columns;
    }

    public static Batch create(List<DataType> types, int capacity) {
        ColumnVector[] columns = new ColumnVector[types.size()];
        for (int index = 0; index < columns.length; index++) {
            columns[index] = ColumnVector.create(types.get(index), capacity);
        }
        return new Batch(columns);
    }

    public ColumnVector column(int index) {
        return columns[index];
    }

    public ColumnVector[] columns() {
        return columns;
    }

    public int columnCount() {
        return columns.length;
    }

    /** Positions holding values (live or not). */
    public int rowCount() {
        return rowCount;
    }

    /** Live positions in ascending order, or null when all {@link #rowCount()} positions are live. */
    public int[] selection() {
        return selection;
    }

    /** Number of live rows. */
    public int selectedCount() {
        return selection == null ? rowCount : selectedCount;
    }

    /** Sets the number of positions and makes all of them live. */
    public void setRowCount(int rowCount) {
        this.rowCount = rowCount;
        this.selection = null;
        this.selectedCount = rowCount;
    }

    /** Restricts the live rows to the first {@code count} entries of {@code positions}. */
    public void setSelection(int[] positions, int count) {
        this.selection = positions;
        this.selectedCount = count;
    }

    /** Live position of the {@code index}-th live row. */
    public int position(int index) {
        return selection == null ? index : selection[index];
    }

    /** Grows every column to hold {@code capacity} positions. */
    public void ensureCapacity(int capacity) {
        for (ColumnVector column : columns) {
            column.ensureCapacity(capacity);
        }
    }

    /** Empties the batch for refilling. */
    public void reset() {
        for (ColumnVector column : columns) {
            column.reset(rowCount);
        }
        setRowCount(0);
    }
}
