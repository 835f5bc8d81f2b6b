package dev.parallax.engine.partition;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
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
 * ({@code key = v}, {@code key IN (v1, v2)}, {@code key = ANY (array)}) or that it is NULL
 * ({@code key IS NULL}). The rows the clause keeps can only lie in the partitions of the key tuples
 * in the cross product of those values, so every other partition is pruned. Values are literals
 * (pruned when planning) or parameters (pruned when execution starts, with the bound values); a
 * value of the key's array type stands for each of its elements. A NULL value (or element)
 * compared with {@code =} matches nothing, so it contributes no tuple. Beyond {@link #MAX_TUPLES}
 * tuples every partition is kept. Immutable.
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
     * @param type        the key column's type; every value is of a kind held the same way, or an
     *                    array of such (the column equals any of its elements)
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

        /**
         * The values as the engine holds them, arrays expanded and NULLs dropped; a single null for
         * {@code IS NULL}.
         */
        List<Object> resolve(ExecutionContext context) {
            if (matchesNull) {
                return java.util.Collections.singletonList(null);
            }
            List<Object> resolved = new ArrayList<>(values.size());
            for (Expr value : values) {
                Object held = valueOf(value, context);
                if (held == null) {
                    continue;
                }
                if (value.type().kind() == TypeKind.ARRAY && type.kind() != TypeKind.ARRAY) {
                    byte[] array = (byte[]) held;
                    int count = ArrayValue.count(array, 0);
                    for (int index = 0; index < count; index++) {
                        Object element = ArrayValue.element(value.type(), array, 0, index);
                        if (element != null) {
                            resolved.add(element);
                        }
                    }
                } else {
                    resolved.add(held);
                }
            }
            return resolved;
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
        List<List<Object>> resolved = new ArrayList<>(keys.size());
        long tuples = 1;
        for (KeyValues key : keys) {
            List<Object> values = key.resolve(context);
            resolved.add(values);
            tuples *= values.size();
            if (tuples > MAX_TUPLES) {
                // An array parameter bound to many values: keeping every partition is never wrong.
                java.util.Arrays.fill(survivors, true);
                return survivors;
            }
        }
        if (tuples == 0) {
            return survivors;
        }
        List<DataType> types = new ArrayList<>(keys.size());
        for (KeyValues key : keys) {
            types.add(key.type());
        }
        int tupleCount = (int) tuples;
        Batch batch = Batch.create(types, tupleCount);
        // Tuple t takes value (t / stride) % size of each key column: the cross product in key order.
        int stride = 1;
        for (int column = 0; column < keys.size(); column++) {
            List<Object> values = resolved.get(column);
            ColumnVector vector = batch.column(column);
            int size = values.size();
            for (int tuple = 0; tuple < tupleCount; tuple++) {
                Object value = values.get((tuple / stride) % size);
                if (value == null) {
                    vector.setNull(tuple);
                } else {
                    set(vector, tuple, value);
                }
            }
            stride *= size;
        }
        batch.setRowCount(tupleCount);
        int[] ordinals = new int[tupleCount];
        int[] keyColumns = new int[keys.size()];
        for (int column = 0; column < keyColumns.length; column++) {
            keyColumns[column] = column;
        }
        router.route(batch, keyColumns, ordinals);
        for (int tuple = 0; tuple < tupleCount; tuple++) {
            if (ordinals[tuple] != PartitionRouter.NO_PARTITION) {
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
