package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.RecursiveUnionNode;
import dev.parallax.engine.plan.WorkTableScanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.convert.WorkTableScanRel;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;

/**
 * RepeatUnion (WITH RECURSIVE, after {@link dev.parallax.planner.query.convert.RecursiveReferences})
 * → RecursiveUnionNode, and its recursive references → WorkTableScanNodes of the same work table.
 * As in PostgreSQL the non-recursive term's column types are the query's: the recursive term is
 * cast to them, and a column whose type the union as a whole widens fails with 42804 (cast the
 * non-recursive term instead). PostgreSQL estimates the recursive term to run ten times.
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
        List<DataType> types = columnTypes(name, nonRecursive.outputTypes(), repeatUnion);
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
     * The query's column types: the non-recursive term's, checked against the union's as
     * PostgreSQL checks them. A numeric literal carries a precision in Calcite that PostgreSQL's
     * has not (1.0 is numeric(2,1) here, numeric there), which arithmetic in the recursive term
     * widens: a numeric column takes the union's precision and scale instead of failing.
     */
    private static List<DataType> columnTypes(String name, List<DataType> nonRecursive, RepeatUnion repeatUnion) {
        List<RelDataTypeField> fields = repeatUnion.getRowType().getFieldList();
        List<DataType> types = new ArrayList<>(nonRecursive.size());
        for (int column = 0; column < nonRecursive.size(); column++) {
            DataType first = nonRecursive.get(column);
            DataType overall = TypeMapping.toEngine(fields.get(column).getType());
            if (first.equals(overall) || first.kind() == TypeKind.NULL) {
                types.add(overall);
            } else if (first.kind() == TypeKind.DECIMAL && overall.kind() == TypeKind.DECIMAL) {
                types.add(overall);
            } else {
                throw new ParallaxException(SqlState.DATATYPE_MISMATCH,
                        String.format("recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
                                name, column + 1, first.sqlName(), overall.sqlName()),
                        null, "Cast the output of the non-recursive term to the correct type.", 0, null);
            }
        }
        return types;
    }
}
