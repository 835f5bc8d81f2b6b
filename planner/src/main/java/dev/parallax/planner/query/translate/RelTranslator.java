package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Translates a logical RelNode tree into a serial engine plan, one small translator per node kind. */
public final class RelTranslator {
    private final RexTranslator rexTranslator;
    private final CostModel costModel;
    /** The recursive queries whose recursive term is being translated, innermost first. */
    private final Deque<RecursiveQuery> recursiveQueries = new ArrayDeque<>();
    private int workTables;

    /** A recursive query whose recursive term is being translated: what its WorkTable Scans read. */
    record RecursiveQuery(String name, int workTable, List<String> columnNames, List<DataType> types, PlanEstimate nonRecursive) {
    }

    public RelTranslator(RexTranslator rexTranslator, CostModel costModel) {
        this.rexTranslator = rexTranslator;
        this.costModel = costModel;
    }

    public PlanNode translate(RelNode node) {
        return switch (node) {
            case TableScan scan -> TableScanTranslator.translate(scan, this);
            case Filter filter -> FilterTranslator.translate(filter, this);
            case Project project -> ProjectTranslator.translate(project, this);
            case Aggregate aggregate -> AggregateTranslator.translate(aggregate, this);
            case Sort sort -> SortTranslator.translate(sort, this);
            case Values values -> ValuesTranslator.translate(values, this);
            case TableFunctionScan functionScan -> GenerateSeriesTranslator.translate(functionScan, this);
            case TableModify modify -> InsertTranslator.translate(modify, this);
            case Union union -> UnionTranslator.translate(union, this);
            case Join join -> JoinTranslator.translate(join, this);
            case org.apache.calcite.rel.core.Window window -> WindowTranslator.translate(window, this);
            case org.apache.calcite.rel.core.Uncollect uncollect -> UnnestTranslator.translate(uncollect, this);
            case org.apache.calcite.rel.core.Correlate correlate -> CorrelateTranslator.translate(correlate, this);
            case dev.parallax.planner.query.convert.ProjectSetRel projectSet -> ProjectSetTranslator.translate(projectSet, this);
            case org.apache.calcite.rel.core.RepeatUnion repeatUnion -> RecursiveUnionTranslator.translate(repeatUnion, this);
            case dev.parallax.planner.query.convert.WorkTableScanRel workTableScan -> RecursiveUnionTranslator.translate(workTableScan, this);
            // INTERSECT and EXCEPT were rewritten to UNION ALL + aggregate; only the ALL forms reach here.
            case org.apache.calcite.rel.core.Intersect intersect -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "INTERSECT ALL is not supported yet");
            case org.apache.calcite.rel.core.Minus minus -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "EXCEPT ALL is not supported yet");
            default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "%s is not supported yet", node.getRelTypeName().replace("Logical", "").toLowerCase(java.util.Locale.ROOT));
        };
    }

    /** Starts the recursive term of the query {@code name}; returns the number of its work table. */
    int enterRecursiveQuery(String name, List<String> columnNames, List<DataType> types, PlanEstimate nonRecursive) {
        int workTable = workTables++;
        recursiveQueries.push(new RecursiveQuery(name, workTable, columnNames, types, nonRecursive));
        return workTable;
    }

    /** Ends the recursive term started last. */
    void leaveRecursiveQuery() {
        recursiveQueries.pop();
    }

    /** The innermost recursive query named {@code name} whose recursive term is being translated, or null. */
    RecursiveQuery recursiveQuery(String name) {
        for (RecursiveQuery query : recursiveQueries) {
            if (query.name().equals(name)) {
                return query;
            }
        }
        return null;
    }

    RexTranslator rex() {
        return rexTranslator;
    }

    CostModel cost() {
        return costModel;
    }
}
