package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.UniqueIndexScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;

import java.util.ArrayList;
import java.util.List;

/**
 * Point lookups through the unique index of a PRIMARY KEY or UNIQUE constraint (Chronicle Map):
 * when the condition over a serial scan fixes every key column to one literal or parameter, the
 * scan becomes a {@link UniqueIndexScanNode} reading at most one row, with the other conjuncts as
 * a Filter above it. Not under {@code enable_indexscan = off}.
 */
final class UniqueIndexPaths {
    private UniqueIndexPaths() {
    }

    /** The point lookup for {@code condition} over {@code scan} when one applies, else {@code otherwise}. */
    static PlanNode pointLookup(SeqScanNode scan, Expr condition, PlanNode otherwise, CostModel cost) {
        Table table = scan.table();
        // A lookup reads no row ids: the target scan of an UPDATE or DELETE stays sequential.
        if (!cost.indexScanEnabled() || table.uniqueConstraints().isEmpty() || scan.readsPseudoColumns()) {
            return otherwise;
        }
        List<Expr> conjuncts = KeyComparisons.conjuncts(condition);
        int[] columns = scan.columns();
        List<DataType> types = scan.outputTypes();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            int[] keyColumns = constraint.keyColumns();
            List<Expr> keyValues = new ArrayList<>(keyColumns.length);
            boolean[] used = new boolean[conjuncts.size()];
            for (int keyColumn : keyColumns) {
                int position = position(columns, keyColumn);
                Expr value = null;
                for (int index = 0; position >= 0 && index < conjuncts.size() && value == null; index++) {
                    List<Expr> values = KeyComparisons.equalValues(conjuncts.get(index), position, table.columns().get(keyColumn).type());
                    if (values != null && values.size() == 1) {
                        value = values.getFirst();
                        used[index] = true;
                    }
                }
                if (value == null) {
                    break;
                }
                keyValues.add(value);
            }
            if (keyValues.size() != keyColumns.length) {
                continue;
            }
            PlanEstimate estimate = cost.indexScan(table.storage().sizeBytes(), Math.max(1, table.storage().rowCount()), 1, types);
            PlanNode plan = new UniqueIndexScanNode(table, constraint, columns, keyValues, estimate);
            List<Expr> residual = new ArrayList<>();
            for (int index = 0; index < conjuncts.size(); index++) {
                if (!used[index]) {
                    residual.add(conjuncts.get(index));
                }
            }
            if (!residual.isEmpty()) {
                Expr rest = residual.size() == 1 ? residual.getFirst() : new Call(Function.AND, residual, DataType.BOOLEAN);
                plan = new FilterNode(plan, rest, cost.filter(plan.estimate(), rest, types));
            }
            return plan;
        }
        return otherwise;
    }

    private static int position(int[] columns, int column) {
        for (int index = 0; index < columns.length; index++) {
            if (columns[index] == column) {
                return index;
            }
        }
        return -1;
    }
}
