package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.expr.Expr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The ON CONFLICT clause of an INSERT.
 *
 * @param action      DO NOTHING or DO UPDATE
 * @param arbiters    the constraints whose conflicts are resolved (ON CONFLICT (cols) / ON CONSTRAINT
 *                    name: one; DO NOTHING without a target: every unique constraint of the table)
 * @param assignments DO UPDATE: per table column, the new value as an expression over the existing
 *                    row's columns followed by the proposed ({@code excluded}) row's columns, or null
 *                    where the column keeps its value; empty for DO NOTHING
 * @param condition   DO UPDATE ... WHERE, over the same (existing ++ excluded) columns, or null
 */
public record OnConflict(ConflictAction action, List<UniqueConstraint> arbiters, List<Expr> assignments, Expr condition) {
    public OnConflict {
        Objects.requireNonNull(action, "action");
        arbiters = List.copyOf(arbiters);
        // Null entries mean "unchanged": List.copyOf would reject them.
        assignments = Collections.unmodifiableList(new ArrayList<>(assignments));
    }
}
