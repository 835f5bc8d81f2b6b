package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Derives, from an OR over both inputs of an inner join, a restriction on each input alone:
 * {@code (n1.name = 'FRANCE' AND n2.name = 'GERMANY') OR (n1.name = 'GERMANY' AND n2.name = 'FRANCE')}
 * implies {@code n1.name = 'FRANCE' OR n1.name = 'GERMANY'} on n1's side (and the like on n2's).
 * The derived filters are added below the join and the OR stays where it was, so the result is
 * unchanged; the inputs shrink before they are joined, and join ordering sees their real sizes.
 * An input gets a restriction only when every branch of the OR has a term on that input alone.
 * PostgreSQL does the same ({@code extract_restriction_or_clauses}); TPC-H Q7 (nation pairs) and
 * Q19 (part and lineitem terms in each branch) need it to avoid joining whole tables first.
 */
public final class OrRestrictions {
    private OrRestrictions() {
    }

    /** The plan with derived restrictions below each inner join whose condition, or filter above it, has such an OR. */
    public static RelNode derive(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode derived = other;
                if (other instanceof Filter filter && filter.getInput() instanceof Join join && join.getJoinType() == JoinRelType.INNER) {
                    Join restricted = restrictInputs(join, filter.getCondition());
                    if (restricted != join) {
                        derived = filter.copy(filter.getTraitSet(), restricted, filter.getCondition());
                    }
                } else if (other instanceof Join join && join.getJoinType() == JoinRelType.INNER) {
                    derived = restrictInputs(join, join.getCondition());
                }
                // Top-down: the filters just added are visited next, so a restriction over two inputs
                // of a lower join is split further there.
                return super.visit(derived);
            }
        });
    }

    /** {@code join} with filters on its inputs derived from the ORs in {@code condition}; {@code join} when none. */
    private static Join restrictInputs(Join join, RexNode condition) {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int totalCount = join.getRowType().getFieldCount();
        if (join.getRight().getRowType().getFieldCount() + leftCount != totalCount) {
            return join;
        }
        ImmutableBitSet leftFields = ImmutableBitSet.range(0, leftCount);
        ImmutableBitSet rightFields = ImmutableBitSet.range(leftCount, totalCount);
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        List<RexNode> leftRestrictions = new ArrayList<>();
        List<RexNode> rightRestrictions = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() != SqlKind.OR || !RexUtil.isDeterministic(conjunct)) {
                continue;
            }
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(conjunct);
            if (!used.intersects(leftFields) || !used.intersects(rightFields)) {
                continue; // on one input only: filter pushdown moves it whole
            }
            RexNode left = restriction(rexBuilder, conjunct, leftFields);
            if (left != null) {
                leftRestrictions.add(left);
            }
            RexNode right = restriction(rexBuilder, conjunct, rightFields);
            if (right != null) {
                rightRestrictions.add(RexUtil.shift(right, -leftCount));
            }
        }
        if (leftRestrictions.isEmpty() && rightRestrictions.isEmpty()) {
            return join;
        }
        RelNode newLeft = withFilter(join.getLeft(), rexBuilder, leftRestrictions);
        RelNode newRight = withFilter(join.getRight(), rexBuilder, rightRestrictions);
        return join.copy(join.getTraitSet(), join.getCondition(), newLeft, newRight, join.getJoinType(), join.isSemiJoinDone());
    }

    /**
     * The OR of, per branch of {@code or}, the AND of that branch's terms that read only {@code fields};
     * null when some branch has no such term (then nothing is implied on those fields alone).
     */
    private static RexNode restriction(RexBuilder rexBuilder, RexNode or, ImmutableBitSet fields) {
        List<RexNode> branches = new ArrayList<>();
        for (RexNode branch : RelOptUtil.disjunctions(or)) {
            List<RexNode> terms = new ArrayList<>();
            for (RexNode term : RelOptUtil.conjunctions(branch)) {
                if (fields.contains(RelOptUtil.InputFinder.bits(term))) {
                    terms.add(term);
                }
            }
            if (terms.isEmpty()) {
                return null;
            }
            branches.add(RexUtil.composeConjunction(rexBuilder, terms));
        }
        return RexUtil.composeDisjunction(rexBuilder, branches);
    }

    private static RelNode withFilter(RelNode input, RexBuilder rexBuilder, List<RexNode> restrictions) {
        if (restrictions.isEmpty()) {
            return input;
        }
        return LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, restrictions));
    }
}
