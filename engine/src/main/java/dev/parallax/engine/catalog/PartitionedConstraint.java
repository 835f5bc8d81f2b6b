package dev.parallax.engine.catalog;

import java.util.List;
import java.util.Objects;

/**
 * A PRIMARY KEY or UNIQUE constraint declared on a partitioned table. Like PostgreSQL's
 * partitioned index it has a name (in the relation namespace) but no index of its own: every
 * partition gets a {@link UniqueConstraint} with its own unique index over the same columns, and
 * because the key includes the partition key, equal keys always meet in the same partition.
 */
public record PartitionedConstraint(String name, boolean primaryKey, List<String> columnNames) {
    public PartitionedConstraint {
        Objects.requireNonNull(name, "name");
        columnNames = List.copyOf(columnNames);
        if (columnNames.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
    }
}
