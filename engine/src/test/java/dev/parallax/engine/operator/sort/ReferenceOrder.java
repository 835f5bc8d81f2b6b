package dev.parallax.engine.operator.sort;

import dev.parallax.engine.plan.SortKey;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The order PostgreSQL gives rows of Java values (Long, Double, String in C collation), computed
 * independently of the engine: each key compares values, NULLs last ascending and where the key says.
 */
public final class ReferenceOrder {
    private ReferenceOrder() {
    }

    /** {@code rows} sorted by {@code keys} (stable, so ties keep their input order). */
    public static List<List<Object>> sort(List<List<Object>> rows, List<SortKey> keys) {
        List<List<Object>> sorted = new ArrayList<>(rows);
        sorted.sort(comparator(keys));
        return sorted;
    }

    /** The key columns of each row, to compare orders where ties may legitimately come out either way. */
    public static List<List<Object>> keyColumns(List<List<Object>> rows, List<SortKey> keys) {
        List<List<Object>> projected = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>();
            for (SortKey key : keys) {
                Object value = row.get(key.column());
                // -0 and 0 are equal keys, so either may come first; compare them as one value.
                values.add(value instanceof Double number && number == 0 ? (Object) 0.0 : value);
            }
            projected.add(values);
        }
        return projected;
    }

    private static Comparator<List<Object>> comparator(List<SortKey> keys) {
        return (left, right) -> {
            for (SortKey key : keys) {
                Object leftValue = left.get(key.column());
                Object rightValue = right.get(key.column());
                int order;
                if (leftValue == null || rightValue == null) {
                    order = leftValue == rightValue ? 0 : (leftValue == null) == key.nullsFirst() ? -1 : 1;
                } else {
                    order = compareValues(leftValue, rightValue);
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

    private static int compareValues(Object left, Object right) {
        return switch (left) {
            case Long value -> Long.compare(value, (Long) right);
            // PostgreSQL orders NaN above every number and -0 equal to 0.
            case Double value -> value.equals(right) || value == (double) (Double) right ? 0 : Double.compare(value, (Double) right);
            case String value -> Arrays.compareUnsigned(value.getBytes(StandardCharsets.UTF_8), ((String) right).getBytes(StandardCharsets.UTF_8));
            default -> throw new IllegalArgumentException("no reference order for " + left.getClass());
        };
    }
}
