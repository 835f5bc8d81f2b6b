package dev.parallax.engine.sort;

import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Test rows as Java values (Long, Double, String for text and bit strings as 0/1 digits, null),
 * converted to and from batches, and a reference ordering written independently of the sorter:
 * PostgreSQL's rules applied to Java values, with a stable List.sort.
 */
final class SortRows {
    private SortRows() {
    }

    static List<Batch> toBatches(List<DataType> types, List<Object[]> rows, int batchRows) {
        List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += batchRows) {
            int count = Math.min(batchRows, rows.size() - from);
            Batch batch = Batch.create(types, count);
            for (int column = 0; column < types.size(); column++) {
                ColumnVector vector = batch.column(column);
                for (int index = 0; index < count; index++) {
                    set(vector, index, rows.get(from + index)[column]);
                }
            }
            batch.setRowCount(count);
            batches.add(batch);
        }
        return batches;
    }

    static void set(ColumnVector vector, int position, Object value) {
        if (value == null) {
            vector.setNull(position);
            return;
        }
        switch (vector) {
            case LongVector longs -> longs.set(position, (Long) value);
            case DoubleVector doubles -> doubles.set(position, (Double) value);
            case BytesVector bytes -> bytes.set(position, vector.type().kind().isBitString()
                    ? BitString.parse((String) value) : ((String) value).getBytes(StandardCharsets.UTF_8));
        }
    }

    static Object get(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            return null;
        }
        return switch (vector) {
            case LongVector longs -> longs.get(position);
            case DoubleVector doubles -> doubles.get(position);
            case BytesVector bytes -> vector.type().kind().isBitString()
                    ? BitString.toString(bytes.data(), bytes.offset(position), bytes.length(position))
                    : bytes.getString(position);
        };
    }

    /** Reads every live row of the output, closing it. */
    static List<List<Object>> drain(SortedOutput output) {
        List<List<Object>> rows = new ArrayList<>();
        try (output) {
            Batch batch;
            while ((batch = output.next()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int position = batch.position(index);
                    List<Object> row = new ArrayList<>();
                    for (int column = 0; column < batch.columnCount(); column++) {
                        row.add(get(batch.column(column), position));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    static List<List<Object>> sortWith(List<DataType> types, List<SortKey> keys, long limit, SortOptions options, List<Object[]> rows,
                                       int batchRows) {
        try (Sorter sorter = new Sorter(types, keys, limit, options)) {
            for (Batch batch : toBatches(types, rows, batchRows)) {
                sorter.add(batch);
            }
            return drain(sorter.finish());
        }
    }

    /** The expected result: a stable sort by PostgreSQL's rules, then the limit. */
    static List<List<Object>> reference(List<DataType> types, List<SortKey> keys, long limit, List<Object[]> rows) {
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(referenceOrder(types, keys));
        List<List<Object>> result = new ArrayList<>();
        for (Object[] row : sorted) {
            if (limit >= 0 && result.size() == limit) {
                break;
            }
            result.add(Arrays.asList(row));
        }
        return result;
    }

    static Comparator<Object[]> referenceOrder(List<DataType> types, List<SortKey> keys) {
        return (left, right) -> {
            for (SortKey key : keys) {
                Object leftValue = left[key.column()];
                Object rightValue = right[key.column()];
                int order;
                if (leftValue == null || rightValue == null) {
                    order = leftValue == rightValue ? 0 : (leftValue == null) == key.nullsFirst() ? -1 : 1;
                } else {
                    order = compareValues(types.get(key.column()).kind(), leftValue, rightValue);
                    if (key.descending()) {
                        order = -order;
                    }
                }
                if (order != 0) {
                    return order;
                }
            }
            return 0;
        };
    }

    private static int compareValues(TypeKind kind, Object left, Object right) {
        return switch (kind) {
            case REAL, DOUBLE -> Double.compare(normalize((Double) left), normalize((Double) right));
            case CHAR -> utf8(stripTrailingBlanks((String) left)).compareTo(utf8(stripTrailingBlanks((String) right)));
            case TEXT, VARCHAR -> utf8((String) left).compareTo(utf8((String) right));
            // Bit strings as 0/1 digits order lexicographically exactly as PostgreSQL's bit_cmp.
            case BIT, VARBIT -> ((String) left).compareTo((String) right);
            default -> Long.compare((Long) left, (Long) right);
        };
    }

    private static double normalize(double value) {
        return value == 0.0 ? 0.0 : value;
    }

    private static String stripTrailingBlanks(String value) {
        return value.replaceAll(" +$", "");
    }

    private static Utf8 utf8(String value) {
        return new Utf8(value.getBytes(StandardCharsets.UTF_8));
    }

    private record Utf8(byte[] bytes) implements Comparable<Utf8> {
        @Override
        public int compareTo(Utf8 other) {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }
    }
}
