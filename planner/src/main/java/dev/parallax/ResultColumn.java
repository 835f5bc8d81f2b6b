package dev.parallax;

import dev.parallax.engine.type.DataType;

/** A result column: its name as PostgreSQL would label it, and its type. */
public record ResultColumn(String name, DataType type) {
}
