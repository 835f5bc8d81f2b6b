package dev.parallax.engine.catalog;

import dev.parallax.engine.index.UniqueIndex;

import java.util.Objects;

/**
 * A PRIMARY KEY or UNIQUE constraint of a table: the unique index that enforces it and, for each
 * key column of the index's definition in key order, that column's index in the table's rows.
 * The table owns the index: DROP TABLE closes it.
 */
public record UniqueConstraint(UniqueIndex index, int[] keyColumns) {
    public UniqueConstraint {
        Objects.requireNonNull(index, "index");
        keyColumns = keyColumns.clone();
        if (keyColumns.length != index.definition().columnCount()) {
            throw new IllegalArgumentException("constraint " + index.definition().constraintName() + " has "
                    + index.definition().columnCount() + " key columns, got " + keyColumns.length);
        }
    }

    /** The table columns of the key, in key order (a copy). */
    @Override
    public int[] keyColumns() {
        return keyColumns.clone();
    }

    public String name() {
        return index.definition().constraintName();
    }

    public boolean primaryKey() {
        return index.definition().primaryKey();
    }
}
