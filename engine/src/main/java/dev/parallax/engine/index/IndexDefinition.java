package dev.parallax.engine.index;

import dev.parallax.engine.type.DataType;
import java.util.List;
import java.util.Objects;

/**
 * What a unique index enforces: its constraint name (as PostgreSQL reports it, e.g. {@code t_pkey}),
 * the relation it belongs to, the key columns' names and types in key order, whether it is a
 * primary key (NULL keys rejected) or a plain UNIQUE constraint (NULL keys not indexed, as
 * PostgreSQL's default NULLS DISTINCT), and how many entries to size the first map for.
 */
public record IndexDefinition(String constraintName, String relationName, List<String> columnNames,
                              List<DataType> columnTypes, boolean primaryKey, long initialEntries) {
    /** Entries a new index is sized for when the caller has no better estimate. */
    public static final long DEFAULT_INITIAL_ENTRIES = 1 << 14;

    public IndexDefinition {
        Objects.requireNonNull(constraintName, "constraintName");
        Objects.requireNonNull(relationName, "relationName");
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        if (columnNames.isEmpty() || columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException("an index needs one type per key column: " + columnNames + " " + columnTypes);
        }
        if (initialEntries < 1) {
            throw new IllegalArgumentException("initialEntries must be positive: " + initialEntries);
        }
    }

    /** A primary key named as PostgreSQL names it ({@code <relation>_pkey}). */
    public static IndexDefinition primaryKey(String relationName, List<String> columnNames, List<DataType> columnTypes) {
        return new IndexDefinition(relationName + "_pkey", relationName, columnNames, columnTypes, true, DEFAULT_INITIAL_ENTRIES);
    }

    /** A UNIQUE constraint named as PostgreSQL names it ({@code <relation>_<col>[_<col>...]_key}). */
    public static IndexDefinition unique(String relationName, List<String> columnNames, List<DataType> columnTypes) {
        return new IndexDefinition(relationName + "_" + String.join("_", columnNames) + "_key", relationName,
                columnNames, columnTypes, false, DEFAULT_INITIAL_ENTRIES);
    }

    /** This definition with key column {@code keyPosition} named {@code newName} (ALTER TABLE ... RENAME COLUMN). */
    public IndexDefinition withColumnName(int keyPosition, String newName) {
        List<String> names = new java.util.ArrayList<>(columnNames);
        names.set(keyPosition, newName);
        return new IndexDefinition(constraintName, relationName, names, columnTypes, primaryKey, initialEntries);
    }

    public IndexDefinition withInitialEntries(long entries) {
        return new IndexDefinition(constraintName, relationName, columnNames, columnTypes, primaryKey, entries);
    }

    public int columnCount() {
        return columnNames.size();
    }
}
