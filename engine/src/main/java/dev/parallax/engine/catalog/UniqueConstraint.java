package dev.parallax.engine.catalog;

import dev.parallax.engine.index.UniqueIndex;

import java.util.Objects;

/**
 * A PRIMARY KEY or UNIQUE constraint of a table, or a unique index made by CREATE UNIQUE INDEX
 * ({@code indexOnly}: enforced the same way, but PostgreSQL lists no constraint for it in
 * pg_constraint, and DROP INDEX removes it): the unique index that enforces it and, for each key
 * column of the index's definition in key order, that column's index in the table's rows. The
 * table owns the index: DROP TABLE closes it.
 */
public record UniqueConstraint(UniqueIndex index, int[] keyColumns, boolean indexOnly) {
    /** A PRIMARY KEY or UNIQUE constraint. */
    public UniqueConstraint(UniqueIndex index, int[] keyColumns) {
        this(index, keyColumns, false);
    }

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
