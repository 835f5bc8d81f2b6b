package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads table columns {@code columns} (output column i = table column columns[i]) of the rows of
 * {@code index} whose leading key lies between {@code lower} and {@code upper}, in the index's
 * order (ascending, NULLs last, ties by row id). A null bound leaves that end open; when both are
 * null every row is returned, NULL keys included (last), as {@code ORDER BY key} wants. When
 * either bound is present, rows whose leading key is NULL are excluded, as no comparison is true
 * of them. When {@code backward}, the same rows come in the reverse order (descending, NULLs
 * first: PostgreSQL's default for DESC). The operator rebuilds the index first when rows were
 * appended since it was built.
 */
public record IndexScanNode(Table table, OrderedIndex index, int[] columns, IndexBound lower, IndexBound upper,
                            boolean backward, PlanEstimate estimate) implements PlanNode {
    /** A forward scan. */
    public IndexScanNode(Table table, OrderedIndex index, int[] columns, IndexBound lower, IndexBound upper, PlanEstimate estimate) {
        this(table, index, columns, lower, upper, false, estimate);
    }

    public IndexScanNode {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(estimate, "estimate");
        if (index.table() != table) {
            throw new IllegalArgumentException("index " + index.name() + " is not an index of " + table.name());
        }
        columns = columns.clone();
        DataType keyType = table.columns().get(index.keyColumns()[0]).type();
        checkBound(lower, keyType);
        checkBound(upper, keyType);
    }

    private static void checkBound(IndexBound bound, DataType keyType) {
        if (bound == null) {
            return;
        }
        DataType boundType = bound.value().type();
        // Values compare in their stored representation: the kinds (and a decimal's scale) must agree.
        boolean compatible = boundType.kind() == keyType.kind()
                || (boundType.kind().isText() && keyType.kind().isText() && keyType.kind() != TypeKind.CHAR && boundType.kind() != TypeKind.CHAR);
        if (!compatible || (keyType.kind() == TypeKind.DECIMAL && boundType.scale() != keyType.scale())) {
            throw new IllegalArgumentException("index bound of type " + boundType + " does not match key type " + keyType);
        }
    }

    /** The table column of the index's leading key. */
    public int leadingKeyColumn() {
        return index.keyColumns()[0];
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
