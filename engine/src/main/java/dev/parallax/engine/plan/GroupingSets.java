package dev.parallax.engine.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The grouping sets of an {@link AggregateNode} over a {@link GroupingSetsExpandNode}: the node's
 * last group key is the ordinal of the set a row was expanded for, and {@code sets.get(ordinal)}
 * lists the positions among the other group keys that set groups by (the others are NULL in its
 * rows). Kept on the aggregate for EXPLAIN's key lines and for the empty set's row, which
 * PostgreSQL emits (as a plain aggregate without GROUP BY does) also when the input is empty.
 */
public record GroupingSets(List<int[]> sets) {
    public GroupingSets {
        List<int[]> copies = new ArrayList<>(sets.size());
        for (int[] set : sets) {
            copies.add(set.clone());
        }
        sets = List.copyOf(copies);
    }

    @Override
    public List<int[]> sets() {
        List<int[]> copies = new ArrayList<>(sets.size());
        for (int[] set : sets) {
            copies.add(set.clone());
        }
        return copies;
    }

    /** The ordinal of the empty grouping set {@code ()}, or -1 when there is none. */
    public int emptySetOrdinal() {
        for (int ordinal = 0; ordinal < sets.size(); ordinal++) {
            if (sets.get(ordinal).length == 0) {
                return ordinal;
            }
        }
        return -1;
    }
}
