package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * {@code CASE WHEN conditions[0] THEN results[0] ... ELSE otherwise END}. A branch is evaluated only
 * for the rows that reach it, so {@code CASE WHEN x = 0 THEN 0 ELSE 1 / x END} never divides by zero.
 * {@code otherwise} is a NULL literal when the statement has no ELSE.
 */
public record Case(List<Expr> conditions, List<Expr> results, Expr otherwise, DataType type) implements Expr {
    public Case {
        conditions = List.copyOf(conditions);
        results = List.copyOf(results);
    }
}
