package dev.parallax.engine.partition;

import java.util.Arrays;

/**
 * The key of a hash-partitioned table: the table columns whose values are hashed, in key order
 * (PostgreSQL's {@code PARTITION BY HASH (a, b)}).
 */
public record PartitionKey(int[] columns) {
    public PartitionKey {
        if (columns.length == 0) {
            throw new IllegalArgumentException("a partition key needs at least one column");
        }
        columns = columns.clone();
    }

    /** The table columns of the key, in key order (a copy). */
    @Override
    public int[] columns() {
        return columns.clone();
    }

    /** Whether table column {@code column} is part of the key. */
    public boolean contains(int column) {
        for (int keyColumn : columns) {
            if (keyColumn == column) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionKey key && Arrays.equals(columns, key.columns);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(columns);
    }

    @Override
    public String toString() {
        return "PartitionKey" + Arrays.toString(columns);
    }
}
