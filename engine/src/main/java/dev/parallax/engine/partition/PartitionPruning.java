package dev.parallax.engine.partition;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a WHERE clause says about the partition key: for every key column, the values it may equal
 * ({@code key = v}, {@code key IN (v1, v2)}) or that it is NULL ({@code key IS NULL}). The rows
 * the clause keeps can only lie in the partitions of the key tuples in the cross product of those
 * values, so every other partition is pruned. Values are literals (pruned when planning) or
 * parameters (pruned when execution starts, with the bound values). A NULL value compared with
 * {@code =} matches nothing, so it contributes no tuple. Immutable.
 *
 * @param keys one entry per key column, in key order
 */
public record PartitionPruning(List<KeyValues> keys) {
    /** Beyond this many key tuples the pruning step gives up and keeps every partition (cheap to plan, never wrong). */
    public static final int MAX_TUPLES = 4096;

    public PartitionPruning {
        keys = List.copyOf(keys);
    }

    /**
     * The values one key column may take.
     *
     * @param type        the key column's type; every value is of a kind held the same way
     * @param values      literals or parameters the column equals (any of them)
     * @param matchesNull true for {@code key IS NULL} (then {@code values} is empty)
     */
    public record KeyValues(DataType type, List<Expr> values, boolean matchesNull) {
        public KeyValues {
            Objects.requireNonNull(type, "type");
            values = List.copyOf(values);
        }

        int size() {
            return matchesNull ? 1 : values.size();
        }
    }

    /** Whether any value is a parameter (then pruning waits for execution start). */
    public boolean hasParameters() {
        for (KeyValues key : keys) {
            for (Expr value : key.values()) {
                if (value instanceof Parameter) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the number of key tuples is small enough to prune by ({@link #MAX_TUPLES}). */
    public boolean isUsable() {
        long tuples = 1;
        for (KeyValues key : keys) {
            tuples *= key.size();
            if (tuples > MAX_TUPLES) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks in the result, by partition ordinal of {@code router}, the partitions that may hold
     * matching rows. {@code context} supplies parameter values and may be null when there are none.
     */
    public boolean[] survivors(PartitionRouter router, ExecutionContext context) {
        boolean[] survivors = new boolean[router.partitionCount()];
        int tuples = 1;
        for (KeyValues key : keys) {
            tuples *= key.size();
        }
        if (tuples == 0) {
            return survivors;
        }
        List<DataType> types = new ArrayList<>(keys.size());
        for (KeyValues key : keys) {
            types.add(key.type());
        }
        Batch batch = Batch.create(types, tuples);
        boolean[] excluded = new boolean[tuples];
        // Tuple t takes value (t / stride) % size of each key column: the cross product in key order.
        int stride = 1;
        for (int column = 0; column < keys.size(); column++) {
            KeyValues key = keys.get(column);
            ColumnVector vector = batch.column(column);
            int size = key.size();
            for (int tuple = 0; tuple < tuples; tuple++) {
                if (key.matchesNull()) {
                    vector.setNull(tuple);
                    continue;
                }
                Object value = valueOf(key.values().get((tuple / stride) % size), context);
                if (value == null) {
                    // key = NULL is never true.
                    excluded[tuple] = true;
                    vector.setNull(tuple);
                } else {
                    set(vector, tuple, value);
                }
            }
            stride *= size;
        }
        batch.setRowCount(tuples);
        int[] ordinals = new int[tuples];
        int[] keyColumns = new int[keys.size()];
        for (int column = 0; column < keyColumns.length; column++) {
            keyColumns[column] = column;
        }
        router.route(batch, keyColumns, ordinals);
        for (int tuple = 0; tuple < tuples; tuple++) {
            if (!excluded[tuple] && ordinals[tuple] != PartitionRouter.NO_PARTITION) {
                survivors[ordinals[tuple]] = true;
            }
        }
        return survivors;
    }

    private static Object valueOf(Expr value, ExecutionContext context) {
        return switch (value) {
            case Literal literal -> literal.value();
            case Parameter parameter -> {
                if (context == null) {
                    throw new IllegalStateException("parameter $" + (parameter.index() + 1) + " pruned without an execution");
                }
                yield context.parameter(parameter.index());
            }
            default -> throw new IllegalArgumentException("a pruning value must be a literal or a parameter: " + value);
        };
    }

    private static void set(ColumnVector vector, int position, Object value) {
        switch (vector) {
            case LongVector longs -> longs.set(position, ((Number) value).longValue());
            case DoubleVector doubles -> doubles.set(position, ((Number) value).doubleValue());
            case BytesVector bytes -> bytes.set(position, (byte[]) value);
        }
    }
}
