package dev.parallax.engine.operator.filter;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * A filter on one join key column made from the keys of a finished hash join build: a probe row
 * whose key is not among them (or is NULL) cannot match, so an INNER, RIGHT or SEMI join drops it
 * anyway. Installed by the join into the {@link FilterOperator} below its probe side, where it
 * runs before the filter's own condition: TPC-H Q19 keeps 485 parts, so 99.8% of lineitem rows
 * leave before its string conditions are evaluated (the role PostgreSQL's index on l_partkey plays
 * in its nested loop, and DuckDB's join filter pushdown).
 * <p>One instance per participant, used by its thread. When it keeps nearly every row it is not
 * worth its check and switches itself off.
 */
public final class JoinKeyFilter {
    /** Rows to see before judging whether the filter pays. */
    private static final long TRIAL_ROWS = 1 << 16;

    private final int column;
    private final LongValueSet keys;
    private long rowsSeen;
    private long rowsKept;
    private boolean disabled;

    /**
     * @param column the key column's index in the filtered batches
     * @param keys   the non-NULL build keys
     */
    public JoinKeyFilter(int column, LongValueSet keys) {
        this.column = column;
        this.keys = java.util.Objects.requireNonNull(keys, "keys");
    }

    /**
     * Writes the live positions of {@code batch} whose key is in the set into {@code out}
     * (ascending; {@code out} may be the batch's own selection) and returns their number. Not
     * called once {@link #disabled()}.
     */
    int select(Batch batch, int[] out) {
        int count = batch.selectedCount();
        int[] selection = batch.selection();
        ColumnVector vector = batch.column(column);
        long[] values = ((LongVector) vector).values();
        boolean[] nulls = vector.mayHaveNulls() ? vector.nulls() : null;
        LongValueSet keys = this.keys;
        int kept = 0;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            out[kept] = position;
            kept += keys.contains(values[position]) && (nulls == null || !nulls[position]) ? 1 : 0;
        }
        rowsSeen += count;
        rowsKept += kept;
        if (rowsSeen >= TRIAL_ROWS && rowsKept * 8 > rowsSeen * 7) {
            disabled = true;
        }
        return kept;
    }

    /** Whether the filter stopped checking rows because it kept nearly all of them. */
    public boolean disabled() {
        return disabled;
    }
}
