package dev.parallax.engine.catalog;

import dev.parallax.engine.type.DataType;

import java.util.Objects;

/** A table column: name (already case-folded as the planner resolved it), type and NOT NULL. */
public record ColumnDefinition(String name, DataType type, boolean notNull) {
    public ColumnDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
