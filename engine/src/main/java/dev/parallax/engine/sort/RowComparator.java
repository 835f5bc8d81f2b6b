package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Orders two rows of one materialized batch (positions, no selection) on all sort keys: the full
 * comparison behind equal prefix keys. Built once per sort from the key types, bound to the
 * batch's current arrays: rebuild it after the batch grows.
 */
abstract class RowComparator {
    /** Negative, zero or positive as row {@code left} sorts before, with, or after row {@code right}. */
    abstract int compare(int left, int right);

    static RowComparator create(Batch rows, List<SortKey> keys) {
        if (keys.size() == 1) {
            return forKey(rows, keys.getFirst());
        }
        RowComparator[] comparators = new RowComparator[keys.size()];
        for (int index = 0; index < comparators.length; index++) {
            comparators[index] = forKey(rows, keys.get(index));
        }
        return new Composite(comparators);
    }

    private static RowComparator forKey(Batch rows, SortKey key) {
        ColumnVector column = rows.column(key.column());
        boolean[] nulls = column.mayHaveNulls() ? column.nulls() : null;
        int direction = key.descending() ? -1 : 1;
        int nullOrder = key.nullsFirst() ? -1 : 1;
        return switch (KeyFamily.of(column.type().kind())) {
            case LONG -> new Longs(((LongVector) column).values(), nulls, direction, nullOrder);
            case DOUBLE -> new Doubles(((DoubleVector) column).values(), nulls, direction, nullOrder);
            case TEXT -> new Text((BytesVector) column, nulls, direction, nullOrder);
            case BLANK_PADDED_TEXT -> new BlankPaddedText((BytesVector) column, nulls, direction, nullOrder);
            case BIT_STRING -> new BitStrings((BytesVector) column, nulls, direction, nullOrder);
            case ARRAY -> new Arrays((BytesVector) column, nulls, direction, nullOrder);
        };
    }

    private static final class Composite extends RowComparator {
        private final RowComparator[] keys;

        Composite(RowComparator[] keys) {
            this.keys = keys;
        }

        @Override
        int compare(int left, int right) {
            for (RowComparator key : keys) {
                int order = key.compare(left, right);
                if (order != 0) {
                    return order;
                }
            }
            return 0;
        }
    }

    /**
     * Null handling shared by the per-key comparators. NULLS FIRST/LAST is independent of the
     * direction, so the null order is applied outside the direction sign.
     */
    private abstract static class KeyComparator extends RowComparator {
        private final boolean[] nulls;
        final int direction;
        private final int nullOrder;

        KeyComparator(boolean[] nulls, int direction, int nullOrder) {
            this.nulls = nulls;
            this.direction = direction;
            this.nullOrder = nullOrder;
        }

        @Override
        final int compare(int left, int right) {
            if (nulls != null) {
                boolean leftNull = nulls[left];
                boolean rightNull = nulls[right];
                if (leftNull || rightNull) {
                    return leftNull == rightNull ? 0 : (leftNull ? nullOrder : -nullOrder);
                }
            }
            return direction * compareValues(left, right);
        }

        abstract int compareValues(int left, int right);
    }

    private static final class Longs extends KeyComparator {
        private final long[] values;

        Longs(long[] values, boolean[] nulls, int direction, int nullOrder) {
            super(nulls, direction, nullOrder);
            this.values = values;
        }

        @Override
        int compareValues(int left, int right) {
            return Long.compare(values[left], values[right]);
        }
    }

    private static final class Doubles extends KeyComparator {
        private final double[] values;

        Doubles(double[] values, boolean[] nulls, int direction, int nullOrder) {
            super(nulls, direction, nullOrder);
            this.values = values;
        }

        @Override
        int compareValues(int left, int right) {
            return ValueOrder.compareDoubles(values[left], values[right]);
        }
    }

    /** Keys held as bytes in one column's data array; subclasses choose the byte order. */
    private abstract static class BytesKeyComparator extends KeyComparator {
        final byte[] data;
        final int[] offsets;
        final int[] lengths;

        BytesKeyComparator(BytesVector column, boolean[] nulls, int direction, int nullOrder) {
            super(nulls, direction, nullOrder);
            this.data = column.data();
            this.offsets = column.offsets();
            this.lengths = column.lengths();
        }
    }

    private static final class Text extends BytesKeyComparator {
        Text(BytesVector column, boolean[] nulls, int direction, int nullOrder) {
            super(column, nulls, direction, nullOrder);
        }

        @Override
        int compareValues(int left, int right) {
            return ValueOrder.compareBytes(data, offsets[left], lengths[left], data, offsets[right], lengths[right]);
        }
    }

    private static final class BlankPaddedText extends BytesKeyComparator {
        BlankPaddedText(BytesVector column, boolean[] nulls, int direction, int nullOrder) {
            super(column, nulls, direction, nullOrder);
        }

        @Override
        int compareValues(int left, int right) {
            return ValueOrder.compareBlankPadded(data, offsets[left], lengths[left], data, offsets[right], lengths[right]);
        }
    }

    private static final class Arrays extends BytesKeyComparator {
        private final dev.parallax.engine.type.DataType arrayType;

        Arrays(BytesVector column, boolean[] nulls, int direction, int nullOrder) {
            super(column, nulls, direction, nullOrder);
            this.arrayType = column.type();
        }

        @Override
        int compareValues(int left, int right) {
            return ValueOrder.compareArrays(arrayType, data, offsets[left], data, offsets[right]);
        }
    }

    private static final class BitStrings extends BytesKeyComparator {
        BitStrings(BytesVector column, boolean[] nulls, int direction, int nullOrder) {
            super(column, nulls, direction, nullOrder);
        }

        @Override
        int compareValues(int left, int right) {
            return ValueOrder.compareBitStrings(data, offsets[left], lengths[left], data, offsets[right], lengths[right]);
        }
    }
}
