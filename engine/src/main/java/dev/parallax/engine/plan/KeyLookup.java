package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.expr.Expr;

import java.util.List;
import java.util.Objects;

/**
 * A point lookup through a unique index: the rows an UPDATE or DELETE targets are found by the key
 * {@code values} (constants or parameters, one per key column of {@code constraint}, of the key
 * columns' types) instead of a scan. The statement's full condition still filters the row found.
 */
public record KeyLookup(UniqueConstraint constraint, List<Expr> values) {
    public KeyLookup {
        Objects.requireNonNull(constraint, "constraint");
        values = List.copyOf(values);
        if (values.size() != constraint.keyColumns().length) {
            throw new IllegalArgumentException("key lookup needs " + constraint.keyColumns().length + " values, got " + values.size());
        }
    }
}
