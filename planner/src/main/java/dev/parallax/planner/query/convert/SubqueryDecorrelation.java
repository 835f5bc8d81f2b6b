package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns subqueries (scalar, IN, EXISTS, correlated or not) into plain joins and aggregates where it
 * can, so the translator never sees a {@code RexSubQuery}: [NOT] EXISTS and [NOT] IN in a
 * WHERE conjunction become semi (anti) joins ({@link SubqueryToSemiJoinRule}); Calcite's
 * subquery-removal rules rewrite every other subquery into a join (uncorrelated) or a Correlate (correlated), then
 * {@link RelDecorrelator} replaces each Correlate by a join on the correlation columns with the
 * subquery aggregated per correlation value. A Correlate the decorrelator cannot remove (an outer
 * column inside a function's argument) stays, and runs as a correlated nested loop. A scalar subquery that may return several rows
 * counts its rows per group, and 21000 is raised where its value is used ({@link ScalarSubqueryRowChecks}), as PostgreSQL does.
 */
public final class SubqueryDecorrelation {
    private static final HepProgram SUBQUERY_REMOVAL = new HepProgramBuilder()
            .addRuleCollection(List.of(
                    SubqueryToSemiJoinRule.INSTANCE,
                    CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
                    CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
            .build();

    private SubqueryDecorrelation() {
    }

    /**
     * The plan without subqueries; {@code plan} itself when it has none. A correlation the
     * decorrelator cannot remove stays a Correlate, which runs its right side once per left row
     * (CorrelateTranslator).
     */
    public static RelNode apply(RelNode plan, RelBuilder relBuilder) {
        if (!hasSubquery(plan)) {
            return plan;
        }
        HepPlanner hep = new HepPlanner(SUBQUERY_REMOVAL);
        hep.setExecutor(NoConstantReduction.INSTANCE);
        RelNode levelled = SubqueryCorrelationLevels.apply(plan);
        hep.setRoot(levelled);
        RelNode removed = hep.findBestExp();
        // A select-list subquery reading only an enclosing query's row: RelDecorrelator dropped one
        // of the outer row's correlations there (select (select (select count(*) from d where
        // d.x = a.k) from b where b.x = a.x) from a joined b to every a row, then 21000), so such a
        // statement keeps its Correlates and runs each correlated subquery once per outer row.
        RelNode decorrelated = levelled == plan ? RelDecorrelator.decorrelateQuery(removed, relBuilder) : removed;
        return ScalarSubqueryRowChecks.apply(withoutLiteralAggregates(decorrelated, relBuilder), relBuilder);
    }

    /**
     * Calcite's NOT IN rewrite marks matches with {@code LITERAL_AGG(true)}, an aggregate whose value
     * is a constant for every group; the engine has no such aggregate, so the constant moves into
     * a projection above the aggregate.
     */
    private static RelNode withoutLiteralAggregates(RelNode plan, RelBuilder relBuilder) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (!(visited instanceof Aggregate aggregate) || aggregate.getGroupType() != Aggregate.Group.SIMPLE
                        || aggregate.getAggCallList().stream().noneMatch(call -> call.getAggregation().getKind() == SqlKind.LITERAL_AGG)) {
                    return visited;
                }
                List<AggregateCall> kept = new ArrayList<>();
                for (AggregateCall call : aggregate.getAggCallList()) {
                    if (call.getAggregation().getKind() != SqlKind.LITERAL_AGG) {
                        kept.add(call);
                    }
                }
                relBuilder.push(aggregate.getInput());
                relBuilder.aggregate(relBuilder.groupKey(aggregate.getGroupSet()), kept);
                int groupCount = aggregate.getGroupCount();
                List<RexNode> projects = new ArrayList<>();
                for (int index = 0; index < groupCount; index++) {
                    projects.add(relBuilder.field(index));
                }
                int keptIndex = groupCount;
                for (AggregateCall call : aggregate.getAggCallList()) {
                    projects.add(call.getAggregation().getKind() == SqlKind.LITERAL_AGG ? call.rexList.getFirst()
                            : relBuilder.field(keptIndex++));
                }
                relBuilder.project(projects, aggregate.getRowType().getFieldNames(), true);
                return relBuilder.build();
            }
        });
    }

    private static boolean hasSubquery(RelNode plan) {
        boolean[] found = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                boolean here = switch (node) {
                    case Filter filter -> RexUtil.SubQueryFinder.find(filter.getCondition()) != null;
                    case Project project -> RexUtil.SubQueryFinder.find(project.getProjects()) != null;
                    case Join join -> RexUtil.SubQueryFinder.find(join.getCondition()) != null;
                    default -> false;
                };
                if (here) {
                    found[0] = true;
                } else {
                    super.visit(node, ordinal, parent);
                }
            }
        }.go(plan);
        return found[0];
    }

}
