package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.schema.EngineTable;
import com.google.common.collect.ImmutableSet;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexTableInputRef;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code WHERE ... AND [NOT] EXISTS (SELECT ... FROM r WHERE <correlated>)} and
 * {@code WHERE ... AND x [NOT] IN (SELECT y FROM r [WHERE <correlated>])} as a semi (anti) join of
 * the filter's input with {@code r} on the correlated predicates, which is how PostgreSQL plans
 * them (Hash Semi Join / Hash Anti Join with a Join Filter for non-equality predicates such as
 * TPC-H Q21's {@code l2.l_suppkey <> l1.l_suppkey}). Calcite's general path instead joins the
 * subquery with a duplicate-free copy of the whole outer input (a "value generator"), which
 * evaluates the outer joins again. Only top-level conjuncts of a filter qualify (there NULL and
 * FALSE both reject the row); NOT IN only when neither side can be NULL, where it equals an anti
 * join. Everything else is left to Calcite's subquery removal and decorrelation.
 */
public final class SubqueryToSemiJoinRule extends RelRule<RelRule.Config> {
    public static final SubqueryToSemiJoinRule INSTANCE = new SubqueryToSemiJoinRule(Config.DEFAULT);

    private SubqueryToSemiJoinRule(RelRule.Config config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        for (int index = 0; index < conjuncts.size(); index++) {
            RelNode rewritten = rewrite(filter, conjuncts, index, call.builder());
            if (rewritten != null) {
                call.transformTo(rewritten);
                return;
            }
        }
    }

    /** The filter with conjunct {@code index} turned into a semi or anti join; null when it does not qualify. */
    private static RelNode rewrite(Filter filter, List<RexNode> conjuncts, int index, RelBuilder builder) {
        RexNode conjunct = conjuncts.get(index);
        boolean negated = conjunct.getKind() == SqlKind.NOT;
        RexNode operand = negated ? ((RexCall) conjunct).getOperands().getFirst() : conjunct;
        if (!(operand instanceof RexSubQuery subquery)) {
            return null;
        }
        boolean exists = subquery.getKind() == SqlKind.EXISTS;
        boolean in = subquery.getKind() == SqlKind.IN && subquery.getOperands().size() == 1;
        if (!exists && !in) {
            return null;
        }
        RelNode body = subquery.rel;
        RexNode selected = null;
        if (in) {
            if (body.getRowType().getFieldCount() != 1) {
                return null;
            }
            if (negated && (mayBeNull(subquery.getOperands().getFirst(), filter.getInput())
                    || mayBeNull(new RexInputRef(0, body.getRowType().getFieldList().getFirst().getType()), body))) {
                return null;
            }
            if (body instanceof Project project && project.getInput() instanceof Filter) {
                selected = project.getProjects().getFirst();
                body = project.getInput();
            } else {
                selected = null;
            }
        } else {
            while (body instanceof Project project) {
                body = project.getInput();
            }
        }
        Set<CorrelationId> outer = filter.getVariablesSet();
        RelNode right;
        List<RexNode> joinPredicates = new ArrayList<>();
        List<RexNode> rightPredicates = new ArrayList<>();
        if (body instanceof Filter inner && (!outer.isEmpty() || exists)) {
            right = inner.getInput();
            for (RexNode predicate : RelOptUtil.conjunctions(inner.getCondition())) {
                (uses(predicate, outer) ? joinPredicates : rightPredicates).add(predicate);
            }
            if (exists && joinPredicates.isEmpty()) {
                return null;
            }
        } else {
            right = body;
            if (in && selected == null) {
                selected = new RexInputRef(0, body.getRowType().getFieldList().getFirst().getType());
            }
        }
        if (uses(right, outer) || uses(rightPredicates, outer) || selected != null && uses(List.of(selected), outer)
                || usesInSubquery(joinPredicates, outer)) {
            // A subquery inside a join predicate that reads the outer row (two levels up) would
            // keep its correlation variable with no Correlate left to bind it; Calcite's path
            // nests the Correlates and decorrelates them.
            return null;
        }
        int leftCount = filter.getInput().getRowType().getFieldCount();
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RexShuttle toJoinFields = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                return new RexInputRef(reference.getIndex() + leftCount, reference.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && outer.contains(variable.id)) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }
        };
        List<RexNode> condition = new ArrayList<>();
        if (in) {
            condition.add(rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                    subquery.getOperands().getFirst(), selected.accept(toJoinFields)));
        }
        for (RexNode predicate : joinPredicates) {
            condition.add(predicate.accept(toJoinFields));
        }
        // The other conjuncts filter the left input below the join (a semi or anti join passes the
        // left row type through unchanged), where join planning can push them into the inputs.
        List<RexNode> remaining = new ArrayList<>(conjuncts);
        remaining.remove(index);
        RelNode left = remaining.isEmpty() ? filter.getInput() : LogicalFilter.create(filter.getInput(),
                RexUtil.composeConjunction(rexBuilder, remaining), ImmutableSet.copyOf(filter.getVariablesSet()));
        builder.push(left);
        builder.push(right);
        if (!rightPredicates.isEmpty()) {
            builder.filter(rightPredicates);
        }
        builder.join(negated ? JoinRelType.ANTI : JoinRelType.SEMI, RexUtil.composeConjunction(rexBuilder, condition));
        return builder.build();
    }

    /**
     * Whether {@code expression} over {@code input} can be NULL. Calcite sees every table column as
     * nullable (NOT NULL is the engine's to enforce), so a column traced to a NOT NULL table column
     * (through projections, filters, joins and group keys) counts as never NULL.
     */
    private static boolean mayBeNull(RexNode expression, RelNode input) {
        if (!expression.getType().isNullable()) {
            return false;
        }
        if (!(expression instanceof RexInputRef)) {
            return true;
        }
        Set<RexNode> lineage = input.getCluster().getMetadataQuery().getExpressionLineage(input, expression);
        if (lineage == null || lineage.size() != 1 || !(lineage.iterator().next() instanceof RexTableInputRef column)) {
            return true;
        }
        EngineTable table = column.getTableRef().getTable().unwrap(EngineTable.class);
        if (table == null || column.getIndex() >= table.table().columns().size()) {
            return true;
        }
        // An outer join could still add NULLs above the column; only inner paths keep NOT NULL.
        return !table.table().columns().get(column.getIndex()).notNull() || hasOuterJoin(input);
    }

    private static boolean hasOuterJoin(RelNode plan) {
        if (plan instanceof org.apache.calcite.rel.core.Join join && join.getJoinType().generatesNullsOnLeft()
                || plan instanceof org.apache.calcite.rel.core.Join outer && outer.getJoinType().generatesNullsOnRight()) {
            return true;
        }
        if (plan instanceof org.apache.calcite.rel.core.Aggregate aggregate && aggregate.getGroupSets().size() > 1) {
            return true;
        }
        for (RelNode input : plan.getInputs()) {
            if (hasOuterJoin(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean uses(List<RexNode> expressions, Set<CorrelationId> correlations) {
        for (RexNode expression : expressions) {
            if (uses(expression, correlations)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a subquery inside one of the expressions refers to one of the correlation variables. */
    private static boolean usesInSubquery(List<RexNode> expressions, Set<CorrelationId> correlations) {
        boolean[] found = {false};
        for (RexNode expression : expressions) {
            expression.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitSubQuery(RexSubQuery subquery) {
                    found[0] |= uses(subquery.rel, correlations);
                    return super.visitSubQuery(subquery);
                }
            });
        }
        return found[0];
    }

    /** Whether the expression refers to one of the correlation variables, also inside nested subqueries. */
    private static boolean uses(RexNode expression, Set<CorrelationId> correlations) {
        if (correlations.isEmpty()) {
            return false;
        }
        boolean[] found = {false};
        expression.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCorrelVariable(RexCorrelVariable variable) {
                found[0] |= correlations.contains(variable.id);
                return null;
            }

            @Override
            public Void visitSubQuery(RexSubQuery subquery) {
                found[0] |= uses(subquery.rel, correlations);
                return super.visitSubQuery(subquery);
            }
        });
        return found[0];
    }

    private static boolean uses(RelNode plan, Set<CorrelationId> correlations) {
        if (correlations.isEmpty()) {
            return false;
        }
        boolean[] found = {false};
        plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                other.accept(new RexShuttle() {
                    @Override
                    public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                        found[0] |= correlations.contains(variable.id);
                        return variable;
                    }

                    @Override
                    public RexNode visitSubQuery(RexSubQuery subquery) {
                        found[0] |= uses(subquery.rel, correlations);
                        return super.visitSubQuery(subquery);
                    }
                });
                return visited;
            }
        });
        return found[0];
    }

    /** Rule configuration: matches a filter holding a subquery; {@link #onMatch} checks its conjuncts. */
    private record Config(RelBuilderFactory relBuilderFactory, String description, OperandTransform operandSupplier)
            implements RelRule.Config {
        static final Config DEFAULT = new Config(RelFactories.LOGICAL_BUILDER, "SubqueryToSemiJoinRule",
                operand -> operand.operand(Filter.class)
                        .predicate(filter -> RexUtil.SubQueryFinder.find(filter.getCondition()) != null).anyInputs());

        @Override
        public SubqueryToSemiJoinRule toRule() {
            return new SubqueryToSemiJoinRule(this);
        }

        @Override
        public Config withRelBuilderFactory(RelBuilderFactory factory) {
            return new Config(factory, description, operandSupplier);
        }

        @Override
        public Config withDescription(String newDescription) {
            return new Config(relBuilderFactory, newDescription, operandSupplier);
        }

        @Override
        public Config withOperandSupplier(OperandTransform transform) {
            return new Config(relBuilderFactory, description, transform);
        }
    }
}
