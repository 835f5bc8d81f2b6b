package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code unnest(array)}: one output row per element of {@code array}, an expression over the
 * input row. With {@code keepInput} the input row's columns come first (a lateral
 * {@code FROM t, unnest(t.a)}), then the element, then, {@code withOrdinality}, its 1-based
 * position (bigint). An input row whose array is NULL or empty gives no row, or with {@code outer}
 * one row with NULL element (and ordinality).
 */
public record UnnestNode(PlanNode input, Expr array, boolean keepInput, boolean withOrdinality, boolean outer,
                         PlanEstimate estimate) implements PlanNode {
    public UnnestNode {
        if (array.type().kind() != TypeKind.ARRAY) {
            throw new IllegalArgumentException("unnest of " + array.type());
        }
    }

    /** The type of the element column. */
    public DataType elementType() {
        return array.type().element();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> types = new ArrayList<>(keepInput ? input.outputTypes() : List.of());
        types.add(elementType());
        if (withOrdinality) {
            types.add(DataType.BIGINT);
        }
        return types;
    }
}
