package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.DataType;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A point lookup through the unique index of {@code constraint}: the row whose key columns equal
 * {@code keyValues} (one literal or parameter per key column, in key order, each of a kind held
 * like its column), if any, with table columns {@code columns} (output column i = table column
 * columns[i]). A NULL key value finds nothing, as {@code key = NULL} is never true.
 */
public record UniqueIndexScanNode(Table table, UniqueConstraint constraint, int[] columns, List<Expr> keyValues,
                                  PlanEstimate estimate) implements PlanNode {
    public UniqueIndexScanNode {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(constraint, "constraint");
        Objects.requireNonNull(estimate, "estimate");
        if (!table.uniqueConstraints().contains(constraint)) {
            throw new IllegalArgumentException("constraint " + constraint.name() + " is not on " + table.name());
        }
        columns = columns.clone();
        keyValues = List.copyOf(keyValues);
        if (keyValues.size() != constraint.keyColumns().length) {
            throw new IllegalArgumentException(constraint.name() + " needs " + constraint.keyColumns().length + " key values");
        }
        for (Expr value : keyValues) {
            if (!(value instanceof Literal) && !(value instanceof Parameter)) {
                throw new IllegalArgumentException("a point lookup key must be a literal or a parameter: " + value);
            }
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public List<DataType> outputTypes() {
        return Arrays.stream(columns).mapToObj(column -> table.columns().get(column).type()).toList();
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }
}
