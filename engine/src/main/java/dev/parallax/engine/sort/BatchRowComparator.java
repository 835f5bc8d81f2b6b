package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Orders rows of two different batches on all sort keys, for merges and for the top-N filter,
 * where the batches change too often to bind a {@link RowComparator}, and for placing rows into an
 * ordered index's existing order. Key families are resolved
 * once at construction; each comparison switches on them without allocating.
 */
public final class BatchRowComparator {
    private final int[] columns;
    private final KeyFamily[] families;
    private final DataType[] types;
    private final int[] directions;
    private final int[] nullOrders;

    /** A comparator on {@code keys}, whose columns index batches of {@code columnTypes}. */
    public BatchRowComparator(List<SortKey> keys, List<DataType> columnTypes) {
        int count = keys.size();
        columns = new int[count];
        families = new KeyFamily[count];
        types = new DataType[count];
        directions = new int[count];
        nullOrders = new int[count];
        for (int index = 0; index < count; index++) {
            SortKey key = keys.get(index);
            columns[index] = key.column();
            types[index] = columnTypes.get(key.column());
            families[index] = KeyFamily.of(types[index].kind());
            directions[index] = key.descending() ? -1 : 1;
            nullOrders[index] = key.nullsFirst() ? -1 : 1;
        }
    }

    /** Compares position {@code leftPosition} of {@code left} with position {@code rightPosition} of {@code right}. */
    public int compare(Batch left, int leftPosition, Batch right, int rightPosition) {
        for (int key = 0; key < columns.length; key++) {
            ColumnVector leftColumn = left.column(columns[key]);
            ColumnVector rightColumn = right.column(columns[key]);
            boolean leftNull = leftColumn.isNull(leftPosition);
            boolean rightNull = rightColumn.isNull(rightPosition);
            int order;
            if (leftNull || rightNull) {
                order = leftNull == rightNull ? 0 : (leftNull ? nullOrders[key] : -nullOrders[key]);
            } else {
                order = directions[key] * compareValues(families[key], types[key], leftColumn, leftPosition, rightColumn, rightPosition);
            }
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private static int compareValues(KeyFamily family, DataType type, ColumnVector left, int leftPosition, ColumnVector right,
                                     int rightPosition) {
        return switch (family) {
            case LONG -> Long.compare(((LongVector) left).values()[leftPosition], ((LongVector) right).values()[rightPosition]);
            case DOUBLE -> ValueOrder.compareDoubles(((DoubleVector) left).values()[leftPosition], ((DoubleVector) right).values()[rightPosition]);
            case TEXT, BLANK_PADDED_TEXT, BIT_STRING, ARRAY -> {
                BytesVector leftBytes = (BytesVector) left;
                BytesVector rightBytes = (BytesVector) right;
                byte[] leftData = leftBytes.data();
                int leftOffset = leftBytes.offset(leftPosition);
                int leftLength = leftBytes.length(leftPosition);
                byte[] rightData = rightBytes.data();
                int rightOffset = rightBytes.offset(rightPosition);
                int rightLength = rightBytes.length(rightPosition);
                yield switch (family) {
                    case TEXT -> ValueOrder.compareBytes(leftData, leftOffset, leftLength, rightData, rightOffset, rightLength);
                    case BLANK_PADDED_TEXT -> ValueOrder.compareBlankPadded(leftData, leftOffset, leftLength, rightData, rightOffset, rightLength);
                    case BIT_STRING -> ValueOrder.compareBitStrings(leftData, leftOffset, leftLength, rightData, rightOffset, rightLength);
                    case ARRAY -> ValueOrder.compareArrays(type, leftData, leftOffset, rightData, rightOffset);
                    case LONG, DOUBLE -> throw new AssertionError(family);
                };
            }
        };
    }
}
