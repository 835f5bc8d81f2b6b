package dev.parallax.engine.catalog;

import dev.parallax.engine.index.UniqueIndex;

import java.util.List;
import java.util.Objects;

/**
 * A PRIMARY KEY or UNIQUE constraint declared on a partitioned table (or with {@code indexOnly} a
 * unique index made by CREATE UNIQUE INDEX, which names no constraint), with the one unique index
 * that enforces it across all partitions: every partition gets a {@link UniqueConstraint} over the
 * same columns whose index is its share of this one
 * ({@link dev.parallax.engine.index.PartitionUniqueIndex}). Because the key includes the partition
 * key, equal keys always meet in the same partition. The partitioned table owns the index: DROP
 * TABLE of the parent closes it.
 */
public record PartitionedConstraint(String name, boolean primaryKey, List<String> columnNames, UniqueIndex index,
                                    boolean indexOnly) {
    /** A PRIMARY KEY or UNIQUE constraint. */
    public PartitionedConstraint(String name, boolean primaryKey, List<String> columnNames, UniqueIndex index) {
        this(name, primaryKey, columnNames, index, false);
    }

    public PartitionedConstraint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(index, "index");
        columnNames = List.copyOf(columnNames);
        if (columnNames.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
    }
}
