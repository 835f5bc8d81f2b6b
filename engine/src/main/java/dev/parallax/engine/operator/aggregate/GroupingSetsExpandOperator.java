package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Runs a {@link dev.parallax.engine.plan.GroupingSetsExpandNode}: returns each input batch once per
 * grouping set. Nothing is copied: a set's batch shares the input's column vectors, its key columns
 * are the input's key vectors or an all-NULL vector of the key's type, and its ordinal column is a
 * constant vector, so expanding costs a few array stores per batch and set, not per row.
 */
public final class GroupingSetsExpandOperator implements Operator {
    private final Operator input;
    private final int[] keyColumns;
    private final List<DataType> keyTypes;
    /** Per set and key: whether the set groups by that key. */
    private final boolean[][] grouped;
    /** One batch per set, its column array refilled for every input batch. */
    private final Batch[] outputs;
    private final ColumnVector[] nullKeys;
    private final LongVector[] ordinals;
    private Batch current;
    private int nextSet;

    public GroupingSetsExpandOperator(Operator input, List<DataType> inputTypes, int[] keyColumns, List<int[]> sets) {
        this.input = input;
        this.keyColumns = keyColumns.clone();
        this.keyTypes = java.util.Arrays.stream(keyColumns).mapToObj(inputTypes::get).toList();
        int width = inputTypes.size() + keyColumns.length + 1;
        grouped = new boolean[sets.size()][keyColumns.length];
        outputs = new Batch[sets.size()];
        ordinals = new LongVector[sets.size()];
        for (int set = 0; set < sets.size(); set++) {
            for (int key : sets.get(set)) {
                grouped[set][key] = true;
            }
            outputs[set] = new Batch(new ColumnVector[width]);
        }
        nullKeys = new ColumnVector[keyColumns.length];
        allocateConstants(Batch.DEFAULT_CAPACITY);
    }

    @Override
    public Batch next() {
        if (current == null || nextSet == outputs.length) {
            current = input.next();
            if (current == null) {
                return null;
            }
            nextSet = 0;
            if (current.rowCount() > ordinals[0].capacity()) {
                allocateConstants(current.rowCount());
            }
        }
        int set = nextSet++;
        Batch output = outputs[set];
        ColumnVector[] columns = output.columns();
        int inputWidth = current.columnCount();
        System.arraycopy(current.columns(), 0, columns, 0, inputWidth);
        for (int key = 0; key < keyColumns.length; key++) {
            columns[inputWidth + key] = grouped[set][key] ? current.column(keyColumns[key]) : nullKeys[key];
        }
        columns[inputWidth + keyColumns.length] = ordinals[set];
        output.setRowCount(current.rowCount());
        if (current.selection() != null) {
            output.setSelection(current.selection(), current.selectedCount());
        }
        return output;
    }

    /** The all-NULL key vectors and the constant ordinal vectors, for batches of up to {@code capacity} positions. */
    private void allocateConstants(int capacity) {
        for (int key = 0; key < nullKeys.length; key++) {
            ColumnVector nulls = ColumnVector.create(keyTypes.get(key), capacity);
            for (int position = 0; position < capacity; position++) {
                nulls.setNull(position);
            }
            nullKeys[key] = nulls;
        }
        for (int set = 0; set < ordinals.length; set++) {
            LongVector ordinal = new LongVector(DataType.INTEGER, capacity);
            java.util.Arrays.fill(ordinal.values(), set);
            ordinals[set] = ordinal;
        }
    }

    @Override
    public void close() {
        input.close();
    }
}
