package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.RecursiveUnionNode;
import dev.parallax.engine.plan.WorkTableScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.convert.WorkTableScanRel;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.List;

/**
 * RepeatUnion (WITH RECURSIVE, after {@link dev.parallax.planner.query.convert.RecursiveReferences})
 * → RecursiveUnionNode, and its recursive references → WorkTableScanNodes of the same work table.
 * Both terms are cast to the query's column types (PostgreSQL's 42804 for a recursive term that
 * widens a column was raised in validation: RecursiveColumnTypes). PostgreSQL estimates the
 * recursive term to run ten times.
 */
final class RecursiveUnionTranslator {
    private static final double ESTIMATED_RUNS = 10;

    private RecursiveUnionTranslator() {
    }

    static PlanNode translate(RepeatUnion repeatUnion, RelTranslator translator) {
        String name = repeatUnion.getTransientTable().getQualifiedName().getLast();
        if (!readsItself(repeatUnion.getIterativeRel(), name)) {
            // WITH RECURSIVE over a query that does not read itself is an ordinary UNION (PostgreSQL).
            return translator.translate(LogicalUnion.create(List.of(repeatUnion.getSeedRel(), repeatUnion.getIterativeRel()),
                    repeatUnion.all));
        }
        PlanNode nonRecursive = translator.translate(repeatUnion.getSeedRel());
        List<DataType> types = columnTypes(repeatUnion);
        nonRecursive = UnionTranslator.castTo(nonRecursive, types, translator.cost());
        List<String> columnNames = repeatUnion.getTransientTable().getRowType().getFieldNames();
        int workTable = translator.enterRecursiveQuery(name, columnNames, types, nonRecursive.estimate());
        PlanNode recursive;
        try {
            recursive = UnionTranslator.castTo(translator.translate(repeatUnion.getIterativeRel()), types, translator.cost());
        } finally {
            translator.leaveRecursiveQuery();
        }
        PlanEstimate first = nonRecursive.estimate();
        PlanEstimate runs = recursive.estimate();
        PlanEstimate estimate = new PlanEstimate(first.startupCost(), first.totalCost() + ESTIMATED_RUNS * runs.totalCost(),
                first.rows() + ESTIMATED_RUNS * runs.rows(), CostModel.width(types));
        return new RecursiveUnionNode(nonRecursive, recursive, !repeatUnion.all, workTable, name, estimate);
    }

    private static boolean readsItself(RelNode node, String name) {
        if (node instanceof WorkTableScanRel scan && scan.name().equals(name)) {
            return true;
        }
        for (RelNode input : node.getInputs()) {
            if (readsItself(input, name)) {
                return true;
            }
        }
        return false;
    }

    static PlanNode translate(WorkTableScanRel scan, RelTranslator translator) {
        RelTranslator.RecursiveQuery query = translator.recursiveQuery(scan.name());
        if (query == null) {
            throw ParallaxException.of(SqlState.INTERNAL_ERROR, "recursive reference to query \"%s\" outside its recursive term",
                    scan.name());
        }
        double rows = Math.max(1, query.nonRecursive().rows() * ESTIMATED_RUNS);
        return new WorkTableScanNode(query.workTable(), query.name(), query.columnNames(), query.types(),
                translator.cost().rows(rows, CostModel.width(query.types())));
    }

    /**
     * The query's column types: the union's. They differ from the non-recursive term's only where
     * PostgreSQL would type the term alike: a string literal (char(n) here, text there), a numeric
     * literal's precision (numeric(2,1) here, numeric there); RecursiveColumnTypes refused the rest.
     */
    private static List<DataType> columnTypes(RepeatUnion repeatUnion) {
        return repeatUnion.getRowType().getFieldList().stream().map(RelDataTypeField::getType).map(TypeMapping::toEngine).toList();
    }
}
