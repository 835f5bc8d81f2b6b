package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code PARTITION BY HASH (columns) [PARTITIONS n]} of CREATE TABLE: the key columns in order,
 * and with Parallax's {@code PARTITIONS n} shorthand the number of partitions to create at once
 * ({@code <table>_0 .. <table>_<n-1>}, modulus n), else 0.
 */
public record HashPartitioning(List<String> keyColumnNames, int partitions) {
    public HashPartitioning {
        keyColumnNames = List.copyOf(keyColumnNames);
        if (keyColumnNames.isEmpty() || partitions < 0) {
            throw new IllegalArgumentException("invalid hash partitioning " + keyColumnNames + " " + partitions);
        }
    }
}
