package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Before Calcite's subquery removal: a select list whose subquery reads only an enclosing query's
 * row, {@code select (select (select count(*) from d where d.x = a.k) from b where b.x = a.x) from a},
 * names the correlations it does not bind. The removal rule turns a project's subquery into a
 * Correlate over the project's input on every correlation the subquery uses unless the project
 * lists its own (an empty list means all): the inner Correlate then bound a's variable to b's
 * row, and {@code a.k} read b's second column (wrong rows, or "Index out of range"). A correlation
 * belongs to an enclosing query when an enclosing node binds it or its row type is not the
 * project's input's; the project keeps the others, or a fresh unused one when none is its own, so
 * the subquery joins the project's input uncorrelated and the enclosing Correlate binds the row.
 */
final class SubqueryCorrelationLevels {
    private SubqueryCorrelationLevels() {
    }

    static RelNode apply(RelNode plan) {
        return plan.accept(new Levels(Set.of()));
    }

    /** Visits a plan whose enclosing nodes (through subqueries) bind {@code enclosing}. */
    private static final class Levels extends RelHomogeneousShuttle {
        private final Set<CorrelationId> enclosing;

        Levels(Set<CorrelationId> enclosing) {
            this.enclosing = enclosing;
        }

        @Override
        public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            Set<CorrelationId> bound = new HashSet<>(enclosing);
            bound.addAll(boundBy(visited));
            Levels nested = new Levels(bound);
            RelNode withSubqueries = visited.accept(new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery subquery) {
                    RexSubQuery operandsVisited = (RexSubQuery) super.visitSubQuery(subquery);
                    RelNode rel = subquery.rel.accept(nested);
                    return rel == subquery.rel ? operandsVisited : operandsVisited.clone(rel);
                }
            });
            if (withSubqueries instanceof LogicalProject project && project.getVariablesSet().isEmpty()
                    && RexUtil.SubQueryFinder.find(project.getProjects()) != null) {
                return withOwnCorrelations(project);
            }
            return withSubqueries;
        }

        private RelNode withOwnCorrelations(LogicalProject project) {
            Map<CorrelationId, RelDataType> used = new HashMap<>();
            for (RexNode expression : project.getProjects()) {
                expression.accept(new RexShuttle() {
                    @Override
                    public RexNode visitSubQuery(RexSubQuery subquery) {
                        collectCorrelations(subquery.rel, used);
                        return super.visitSubQuery(subquery);
                    }
                });
            }
            Set<CorrelationId> own = new HashSet<>();
            for (Map.Entry<CorrelationId, RelDataType> variable : used.entrySet()) {
                if (!enclosing.contains(variable.getKey()) && sameFields(variable.getValue(), project.getInput().getRowType())) {
                    own.add(variable.getKey());
                }
            }
            if (own.size() == used.size()) {
                return project;
            }
            Set<CorrelationId> variables = own.isEmpty() ? Set.of(project.getCluster().createCorrel()) : own;
            return LogicalProject.create(project.getInput(), project.getHints(), project.getProjects(), project.getRowType(), variables);
        }
    }

    private static Set<CorrelationId> boundBy(RelNode node) {
        return switch (node) {
            case Project project -> project.getVariablesSet();
            case Filter filter -> filter.getVariablesSet();
            case Join join -> join.getVariablesSet();
            case Correlate correlate -> Set.of(correlate.getCorrelationId());
            default -> Set.of();
        };
    }

    /** Adds each correlation variable {@code plan} reads (also inside its subqueries) with its row type. */
    private static void collectCorrelations(RelNode plan, Map<CorrelationId, RelDataType> used) {
        plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                other.accept(new RexShuttle() {
                    @Override
                    public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                        used.putIfAbsent(variable.id, variable.getType());
                        return variable;
                    }

                    @Override
                    public RexNode visitSubQuery(RexSubQuery subquery) {
                        collectCorrelations(subquery.rel, used);
                        return super.visitSubQuery(subquery);
                    }
                });
                return super.visit(other);
            }
        });
    }

    /** Whether two row types have the same field types in the same order (names may differ). */
    private static boolean sameFields(RelDataType first, RelDataType second) {
        List<RelDataTypeField> firstFields = first.getFieldList();
        List<RelDataTypeField> secondFields = second.getFieldList();
        if (firstFields.size() != secondFields.size()) {
            return false;
        }
        for (int index = 0; index < firstFields.size(); index++) {
            if (!firstFields.get(index).getType().equals(secondFields.get(index).getType())) {
                return false;
            }
        }
        return true;
    }
}
