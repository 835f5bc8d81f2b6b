package dev.parallax.engine.catalog;

import dev.parallax.engine.type.DataType;

import java.util.Objects;

/**
 * A table column: name (already case-folded as the planner resolved it), type, NOT NULL, and its
 * default value ({@code null}: none, so an omitted value is NULL).
 */
public record ColumnDefinition(String name, DataType type, boolean notNull, ColumnDefault defaultValue) {
    public ColumnDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /** A column without a default. */
    public ColumnDefinition(String name, DataType type, boolean notNull) {
        this(name, type, notNull, null);
    }

    /** This column under another name. */
    public ColumnDefinition withName(String newName) {
        return new ColumnDefinition(newName, type, notNull, defaultValue);
    }

    /** This column with {@code value} as its default ({@code null}: none). */
    public ColumnDefinition withDefault(ColumnDefault value) {
        return new ColumnDefinition(name, type, notNull, value);
    }
}
