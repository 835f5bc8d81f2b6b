package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.type.DataType;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;

import java.util.ArrayList;
import java.util.List;

/** Sort → SortNode (top-N of LIMIT + OFFSET rows when both are constants) and/or LimitNode for OFFSET / LIMIT. */
final class SortTranslator {
    private SortTranslator() {
    }

    static PlanNode translate(Sort sort, RelTranslator translator) {
        PlanNode node = translator.translate(sort.getInput());
        Expr offset = sort.offset == null ? null : ArgumentTypes.castTo(translator.rex().translate(sort.offset), DataType.BIGINT);
        Expr limit = sort.fetch == null ? null : ArgumentTypes.castTo(translator.rex().translate(sort.fetch), DataType.BIGINT);
        if (!sort.getCollation().getFieldCollations().isEmpty()) {
            List<SortKey> keys = new ArrayList<>();
            for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
                keys.add(sortKey(collation, collation.getFieldIndex()));
            }
            long topN = topN(offset, limit);
            double rows = topN >= 0 ? Math.min(topN, node.estimate().rows()) : node.estimate().rows();
            SortNode sortNode = new SortNode(node, keys, topN, translator.cost().sort(node.estimate(), rows, topN));
            PlanNode indexScan = topN >= 0 && keys.size() == 1 ? orderedIndexScan(sort.getInput(), keys.getFirst(), topN, sortNode, translator) : null;
            node = indexScan != null ? indexScan : sortNode;
        }
        if (offset != null || limit != null) {
            PlanEstimate input = node.estimate();
            double rows = limit instanceof Literal value && !value.isNull() ? Math.min((Long) value.value(), input.rows()) : input.rows();
            node = new LimitNode(node, offset, limit, new PlanEstimate(input.startupCost(), input.totalCost(), rows, input.width()));
        }
        return node;
    }

    /** The sort key of {@code collation} on input column {@code column}, with PostgreSQL's default NULL placement. */
    static SortKey sortKey(RelFieldCollation collation, int column) {
        boolean descending = collation.getDirection().isDescending();
        boolean nullsFirst = switch (collation.nullDirection) {
            case FIRST -> true;
            case LAST -> false;
            // PostgreSQL: NULLs sort as larger than any value.
            case UNSPECIFIED -> descending;
        };
        return new SortKey(column, descending, nullsFirst);
    }

    /**
     * {@code ORDER BY key [ASC] [NULLS LAST] LIMIT n} straight over a table (or a column list of
     * one): an index leading with the key returns the rows in that order already (NULLs last, as
     * the ascending default), so reading its first n entries replaces the top-N sort when cheaper;
     * {@code ORDER BY key DESC [NULLS FIRST]} reads it backward (NULLs first, as the descending default).
     */
    private static PlanNode orderedIndexScan(RelNode input, SortKey key, long rowsNeeded, SortNode sortNode, RelTranslator translator) {
        if (key.descending() != key.nullsFirst()) {
            return null;
        }
        TableScan scan;
        int[] columns;
        if (input instanceof TableScan tableScan) {
            scan = tableScan;
            columns = java.util.stream.IntStream.range(0, tableScan.getRowType().getFieldCount()).toArray();
        } else if (input instanceof Project project && project.getInput() instanceof TableScan tableScan
                && project.getProjects().stream().allMatch(RexInputRef.class::isInstance)) {
            scan = tableScan;
            columns = project.getProjects().stream().mapToInt(node -> ((RexInputRef) node).getIndex()).toArray();
        } else {
            return null;
        }
        Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
        return IndexPaths.orderedScan(table, columns, columns[key.column()], key.descending(), rowsNeeded, sortNode.estimate().totalCost(), translator.cost());
    }

    /**
     * The rows the sort must keep for a constant LIMIT: limit + offset, or -1 (sort everything)
     * when either is a parameter, NULL or negative (the Limit above reports negative values) or
     * the sum overflows.
     */
    private static long topN(Expr offset, Expr limit) {
        if (!(limit instanceof Literal limitValue) || limitValue.isNull()) {
            return -1;
        }
        long skipped = 0;
        if (offset != null) {
            if (!(offset instanceof Literal offsetValue) || offsetValue.isNull()) {
                return -1;
            }
            skipped = (Long) offsetValue.value();
        }
        long kept = (Long) limitValue.value();
        if (kept < 0 || skipped < 0) {
            return -1;
        }
        long sum = kept + skipped;
        return sum < 0 ? -1 : sum;
    }
}
