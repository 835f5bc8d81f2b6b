package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.IndexBound;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.cost.CostModel;

import java.util.ArrayList;
import java.util.List;

/**
 * Index scan paths over a table's ordered indexes (CREATE INDEX), chosen against the sequential
 * scan by cost, and never under {@code enable_indexscan = off}.
 *
 * <p>Selectivity without statistics uses PostgreSQL's defaults: 0.005 for an equality
 * (DEFAULT_EQ_SEL) and for a range bounded on both ends (DEFAULT_RANGE_INEQ_SEL), 1/3 for a
 * one-sided range (DEFAULT_INEQ_SEL).
 */
final class IndexPaths {
    private static final double EQUALITY_SELECTIVITY = 0.005;
    private static final double RANGE_SELECTIVITY = 0.005;
    private static final double INEQUALITY_SELECTIVITY = 1.0 / 3;

    private IndexPaths() {
    }

    /**
     * An index scan (with a Filter above it for the conjuncts the index does not answer) reading
     * the columns of {@code seqScan} with {@code condition} over them, when one is cheaper than
     * {@code seqScanPlan}; else {@code seqScanPlan}.
     */
    static PlanNode filteredScan(SeqScanNode seqScan, Expr condition, PlanNode seqScanPlan, CostModel cost) {
        Table table = seqScan.table();
        // An index scan reads no row ids: the target scan of an UPDATE or DELETE stays sequential.
        if (!cost.indexScanEnabled() || table.indexes().isEmpty() || seqScan.readsPseudoColumns()) {
            return seqScanPlan;
        }
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(condition, conjuncts);
        int[] columns = seqScan.columns();
        List<DataType> types = seqScan.outputTypes();
        PlanNode best = seqScanPlan;
        for (OrderedIndex index : table.indexes()) {
            DataType keyType = table.columns().get(index.keyColumns()[0]).type();
            // The condition reads the scan's output: find the leading key among its columns.
            int keyColumn = position(columns, index.keyColumns()[0]);
            if (keyColumn < 0) {
                continue;
            }
            IndexBound lower = null;
            IndexBound upper = null;
            List<Expr> residual = new ArrayList<>();
            for (Expr conjunct : conjuncts) {
                Comparison comparison = Comparison.of(conjunct, keyColumn, keyType);
                if (comparison == null) {
                    residual.add(conjunct);
                    continue;
                }
                boolean usedLower = false;
                boolean usedUpper = false;
                if (comparison.setsLower() && lower == null) {
                    lower = new IndexBound(comparison.value(), comparison.function() != Function.GREATER_THAN);
                    usedLower = true;
                }
                if (comparison.setsUpper() && upper == null && (comparison.function() != Function.EQUAL || usedLower)) {
                    upper = new IndexBound(comparison.value(), comparison.function() != Function.LESS_THAN);
                    usedUpper = true;
                }
                boolean answered = comparison.function() == Function.EQUAL ? usedLower && usedUpper : usedLower || usedUpper;
                if (!answered) {
                    residual.add(conjunct);
                }
            }
            if (lower == null && upper == null) {
                continue;
            }
            double selectivity = isEquality(lower, upper) ? EQUALITY_SELECTIVITY
                    : lower != null && upper != null ? RANGE_SELECTIVITY : INEQUALITY_SELECTIVITY;
            double tableRows = table.storage().rowCount();
            PlanEstimate estimate = cost.indexScan(table.storage().sizeBytes(), tableRows, tableRows * selectivity, types);
            PlanNode plan = new IndexScanNode(table, index, columns, lower, upper, estimate);
            if (!residual.isEmpty()) {
                Expr rest = residual.size() == 1 ? residual.getFirst() : new Call(Function.AND, residual, DataType.BOOLEAN);
                plan = new FilterNode(plan, rest, cost.filter(plan.estimate(), rest, types));
            }
            if (plan.estimate().totalCost() < best.estimate().totalCost()) {
                best = plan;
            }
        }
        return best;
    }

    /**
     * An index scan returning table columns {@code columns} in the order of table column
     * {@code sortColumn} (ascending with NULLs last, or with {@code backward} descending with NULLs
     * first), when an index leads with it and reading its first {@code rowsNeeded} entries is
     * cheaper than {@code sortCost}; else null.
     */
    static IndexScanNode orderedScan(Table table, int[] columns, int sortColumn, boolean backward, double rowsNeeded, double sortCost,
                                     CostModel cost) {
        if (!cost.indexScanEnabled()) {
            return null;
        }
        for (OrderedIndex index : table.indexes()) {
            if (index.keyColumns()[0] != sortColumn) {
                continue;
            }
            List<DataType> types = java.util.Arrays.stream(columns).mapToObj(column -> table.columns().get(column).type()).toList();
            double tableRows = table.storage().rowCount();
            PlanEstimate estimate = cost.indexScan(table.storage().sizeBytes(), tableRows, Math.min(rowsNeeded, tableRows), types);
            if (estimate.totalCost() < sortCost) {
                return new IndexScanNode(table, index, columns, null, null, backward, estimate);
            }
        }
        return null;
    }

    private static int position(int[] columns, int column) {
        for (int index = 0; index < columns.length; index++) {
            if (columns[index] == column) {
                return index;
            }
        }
        return -1;
    }

    private static boolean isEquality(IndexBound lower, IndexBound upper) {
        return lower != null && upper != null && lower.inclusive() && upper.inclusive() && lower.value().equals(upper.value());
    }

    private static void flattenAnd(Expr condition, List<Expr> conjuncts) {
        if (condition instanceof Call call && call.function() == Function.AND) {
            for (Expr argument : call.arguments()) {
                flattenAnd(argument, conjuncts);
            }
        } else {
            conjuncts.add(condition);
        }
    }

    /** {@code key <function> value}, with the key on the left (a comparison written the other way round is flipped). */
    private record Comparison(Function function, Expr value) {
        static Comparison of(Expr conjunct, int keyColumn, DataType keyType) {
            if (!(conjunct instanceof Call call) || call.arguments().size() != 2) {
                return null;
            }
            Function function = call.function();
            if (function != Function.EQUAL && function != Function.LESS_THAN && function != Function.LESS_THAN_OR_EQUAL
                    && function != Function.GREATER_THAN && function != Function.GREATER_THAN_OR_EQUAL) {
                return null;
            }
            Expr left = call.arguments().get(0);
            Expr right = call.arguments().get(1);
            if (isKey(right, keyColumn) && !isKey(left, keyColumn)) {
                Expr swap = left;
                left = right;
                right = swap;
                function = switch (function) {
                    case LESS_THAN -> Function.GREATER_THAN;
                    case LESS_THAN_OR_EQUAL -> Function.GREATER_THAN_OR_EQUAL;
                    case GREATER_THAN -> Function.LESS_THAN;
                    case GREATER_THAN_OR_EQUAL -> Function.LESS_THAN_OR_EQUAL;
                    default -> function;
                };
            }
            if (!isKey(left, keyColumn) || !(right instanceof Literal || right instanceof Parameter) || !comparable(right.type(), keyType)) {
                return null;
            }
            return new Comparison(function, right);
        }

        boolean setsLower() {
            return function == Function.EQUAL || function == Function.GREATER_THAN || function == Function.GREATER_THAN_OR_EQUAL;
        }

        boolean setsUpper() {
            return function == Function.EQUAL || function == Function.LESS_THAN || function == Function.LESS_THAN_OR_EQUAL;
        }

        private static boolean isKey(Expr expression, int keyColumn) {
            return expression instanceof ColumnRef ref && ref.index() == keyColumn;
        }

        /** Bounds compare in the key's stored representation: same kind (and decimal scale); char(n) keys are left to the Filter. */
        private static boolean comparable(DataType valueType, DataType keyType) {
            if (keyType.kind() == TypeKind.CHAR || valueType.kind() == TypeKind.CHAR) {
                return false;
            }
            if (valueType.kind().isText() && keyType.kind().isText()) {
                return true;
            }
            return valueType.kind() == keyType.kind() && (keyType.kind() != TypeKind.DECIMAL || valueType.scale() == keyType.scale());
        }
    }
}
