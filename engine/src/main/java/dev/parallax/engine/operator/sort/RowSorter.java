package dev.parallax.engine.operator.sort;

import dev.parallax.engine.operator.ValueComparison;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Sorts the row positions of one materialized batch by a list of keys: one comparator per key,
 * chosen once per sort from the key's vector class, and a stable merge sort over an int array
 * (no boxing). This is the plain sort; the packed prefix-key sorter replaces it later.
 */
final class RowSorter {
    private RowSorter() {
    }

    /** Returns positions {@code 0..rowCount-1} of {@code rows} in key order. */
    static int[] sort(Batch rows, int rowCount, List<SortKey> keys) {
        RowComparator[] comparators = new RowComparator[keys.size()];
        for (int index = 0; index < comparators.length; index++) {
            comparators[index] = comparator(rows.column(keys.get(index).column()), keys.get(index));
        }
        RowComparator combined = comparators.length == 1 ? comparators[0] : (left, right) -> {
            for (RowComparator comparator : comparators) {
                int order = comparator.compare(left, right);
                if (order != 0) {
                    return order;
                }
            }
            return 0;
        };
        int[] order = new int[rowCount];
        for (int index = 0; index < rowCount; index++) {
            order[index] = index;
        }
        mergeSort(order, new int[rowCount], 0, rowCount, combined);
        return order;
    }

    private static RowComparator comparator(ColumnVector column, SortKey key) {
        RowComparator values = switch (column) {
            case LongVector longs -> {
                long[] data = longs.values();
                yield (left, right) -> Long.compare(data[left], data[right]);
            }
            case DoubleVector doubles -> {
                double[] data = doubles.values();
                // Double.compare puts NaN last, as PostgreSQL orders NaN above every number.
                yield (left, right) -> {
                    double leftValue = data[left];
                    double rightValue = data[right];
                    return leftValue == rightValue ? 0 : Double.compare(leftValue, rightValue);
                };
            }
            case BytesVector bytes -> {
                TypeKind kind = bytes.type().kind();
                yield (left, right) -> ValueComparison.compare(kind, bytes.data(), bytes.offset(left), bytes.length(left),
                        bytes.data(), bytes.offset(right), bytes.length(right));
            }
        };
        RowComparator directed = key.descending() ? (left, right) -> values.compare(right, left) : values;
        if (!column.mayHaveNulls()) {
            return directed;
        }
        boolean[] nulls = column.nulls();
        int nullOrder = key.nullsFirst() ? -1 : 1;
        return (left, right) -> {
            boolean leftNull = nulls[left];
            boolean rightNull = nulls[right];
            if (leftNull || rightNull) {
                return leftNull == rightNull ? 0 : (leftNull ? nullOrder : -nullOrder);
            }
            return directed.compare(left, right);
        };
    }

    private static void mergeSort(int[] values, int[] scratch, int from, int to, RowComparator comparator) {
        if (to - from <= 16) {
            for (int index = from + 1; index < to; index++) {
                int value = values[index];
                int insert = index - 1;
                while (insert >= from && comparator.compare(values[insert], value) > 0) {
                    values[insert + 1] = values[insert];
                    insert--;
                }
                values[insert + 1] = value;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(values, scratch, from, middle, comparator);
        mergeSort(values, scratch, middle, to, comparator);
        if (comparator.compare(values[middle - 1], values[middle]) <= 0) {
            return;
        }
        System.arraycopy(values, from, scratch, from, to - from);
        int left = from;
        int right = middle;
        for (int index = from; index < to; index++) {
            if (right >= to || (left < middle && comparator.compare(scratch[left], scratch[right]) <= 0)) {
                values[index] = scratch[left++];
            } else {
                values[index] = scratch[right++];
            }
        }
    }
}
