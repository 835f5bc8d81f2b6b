package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.AggregateProjectMergeRule;
import org.apache.calcite.rel.rules.FilterProjectTransposeRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rel.rules.SemiJoinProjectTransposeRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a projection that computes a volatile expression ({@code random()}, {@code nextval(...)},
 * {@code clock_timestamp()}, ...) a projection of its own, as PostgreSQL keeps a subquery with a
 * volatile output column from being pulled up: each such value is computed once per row, and every
 * reference above reads that one value. Calcite's merges substitute the expression for each
 * reference instead, so {@code select v, v from (select random() as v ...)} returned two different
 * numbers, and {@code where r = r} over {@code random() as r} no rows. The rule variants here do not
 * merge an aggregate into a projection with a volatile expression, nor a projection unless it reads
 * each volatile column exactly once as it is or cast (an INSERT's casts to the column types), push a
 * filter's conjuncts on a volatile column below it, or move a semi join below it; conjuncts on other
 * columns still move down, as PostgreSQL pushes such quals into the subquery. For statements with a
 * volatile call ({@link #hasVolatileCall}) the converter neither merges stacked select lists nor
 * prunes an aggregate's input, and trimming keeps volatile columns ({@link ProjectSetFieldTrimmer}).
 */
public final class VolatileProjectionFence {
    public static final ProjectMergeRule PROJECT_MERGE = new FencedProjectMerge();
    public static final AggregateProjectMergeRule AGGREGATE_PROJECT_MERGE = new FencedAggregateProjectMerge();
    public static final FilterProjectTransposeRule FILTER_PROJECT_TRANSPOSE = new FencedFilterProjectTranspose();
    public static final SemiJoinProjectTransposeRule SEMI_JOIN_PROJECT_TRANSPOSE = new FencedSemiJoinProjectTranspose();

    private VolatileProjectionFence() {
    }

    /** Whether the (validated) statement calls a volatile function anywhere. */
    public static boolean hasVolatileCall(SqlNode statement) {
        boolean[] found = {false};
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (!call.getOperator().isDeterministic()) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }

    /** Whether any of {@code project}'s expressions is volatile. */
    static boolean computesVolatile(Project project) {
        for (RexNode expression : project.getProjects()) {
            if (!RexUtil.isDeterministic(expression)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code expression} (over {@code project}'s output) reads a column {@code project} computes with a volatile expression. */
    static boolean readsVolatileColumn(RexNode expression, Project project) {
        for (int column : RelOptUtil.InputFinder.bits(expression)) {
            if (!RexUtil.isDeterministic(project.getProjects().get(column))) {
                return true;
            }
        }
        return false;
    }

    private static final class FencedProjectMerge extends ProjectMergeRule {
        FencedProjectMerge() {
            super(ProjectMergeRule.Config.DEFAULT);
        }

        @Override
        public boolean matches(RelOptRuleCall call) {
            Project top = call.rel(0);
            Project bottom = call.rel(1);
            return readsVolatileOnceEach(top, bottom) && super.matches(call);
        }
    }

    /**
     * Whether merging {@code top} into {@code bottom} keeps each volatile value computed once per
     * row: every volatile column of {@code bottom} is read by exactly one of {@code top}'s
     * expressions, as itself or through casts (an INSERT's casts to the column types, a column
     * passed on), so the merged projection computes it exactly once too.
     */
    static boolean readsVolatileOnceEach(Project top, Project bottom) {
        List<RexNode> columns = bottom.getProjects();
        int[] direct = new int[columns.size()];
        int[] anywhere = new int[columns.size()];
        for (RexNode expression : top.getProjects()) {
            for (int column : RelOptUtil.InputFinder.bits(expression)) {
                anywhere[column]++;
            }
            RexNode read = expression;
            while (read.getKind() == SqlKind.CAST) {
                read = ((RexCall) read).getOperands().getFirst();
            }
            if (read instanceof RexInputRef reference) {
                direct[reference.getIndex()]++;
            }
        }
        for (int column = 0; column < columns.size(); column++) {
            if (!RexUtil.isDeterministic(columns.get(column)) && (direct[column] != 1 || anywhere[column] != 1)) {
                return false;
            }
        }
        return true;
    }

    private static final class FencedAggregateProjectMerge extends AggregateProjectMergeRule {
        FencedAggregateProjectMerge() {
            super(AggregateProjectMergeRule.Config.DEFAULT);
        }

        @Override
        public boolean matches(RelOptRuleCall call) {
            Project project = call.rel(1);
            return !computesVolatile(project) && super.matches(call);
        }
    }

    private static final class FencedFilterProjectTranspose extends FilterProjectTransposeRule {
        FencedFilterProjectTranspose() {
            super(FilterProjectTransposeRule.Config.DEFAULT);
        }

        /**
         * Moves the conjuncts that read no volatile column below the projection and keeps the others
         * above it, as PostgreSQL pushes quals into a subquery: {@code where n = n and g > 2} over
         * {@code nextval('s') as n} computes nextval for the rows with g > 2 only.
         */
        @Override
        public void onMatch(RelOptRuleCall call) {
            Filter filter = call.rel(0);
            Project project = call.rel(1);
            if (!readsVolatileColumn(filter.getCondition(), project)) {
                super.onMatch(call);
                return;
            }
            List<RexNode> pushed = new ArrayList<>();
            List<RexNode> kept = new ArrayList<>();
            for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
                (readsVolatileColumn(conjunct, project) ? kept : pushed).add(conjunct);
            }
            if (pushed.isEmpty()) {
                return;
            }
            RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
            RexNode below = RelOptUtil.pushPastProject(RexUtil.composeConjunction(rexBuilder, pushed), project);
            RelNode filtered = filter.copy(filter.getTraitSet(), project.getInput(), below);
            RelNode projected = project.copy(project.getTraitSet(), filtered, project.getProjects(), project.getRowType());
            call.transformTo(filter.copy(filter.getTraitSet(), projected, RexUtil.composeConjunction(rexBuilder, kept)));
        }
    }

    private static final class FencedSemiJoinProjectTranspose extends SemiJoinProjectTransposeRule {
        FencedSemiJoinProjectTranspose() {
            super(SemiJoinProjectTransposeRule.Config.DEFAULT);
        }

        @Override
        public boolean matches(RelOptRuleCall call) {
            Project project = call.rel(1);
            return !computesVolatile(project) && super.matches(call);
        }
    }
}
