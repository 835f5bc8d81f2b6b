package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.function.SetReturningOperator;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A projection with set-returning calls ({@link SetReturningOperator}, in a select list) becomes a
 * {@link ProjectSetRel} under a projection, as PostgreSQL plans it: the ProjectSet yields the
 * input's columns with each call's values, and the projection above evaluates the rest of the
 * select list once per output row ({@code md5(random()::text)} differs from row to row). A call
 * inside another call's arguments ({@code generate_series(1, generate_series(1, 3))}) runs in a
 * ProjectSet of its own below. Runs right after conversion, before any rule could move a filter
 * or projection across a set-returning call.
 */
public final class SetReturningProjections {
    private SetReturningProjections() {
    }

    public static RelNode apply(RelNode node) {
        List<RelNode> inputs = new ArrayList<>(node.getInputs().size());
        boolean changed = false;
        for (RelNode input : node.getInputs()) {
            RelNode converted = apply(input);
            changed |= converted != input;
            inputs.add(converted);
        }
        RelNode result = changed ? node.copy(node.getTraitSet(), inputs) : node;
        result = result.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode converted = SetReturningProjections.apply(visited.rel);
                return converted == visited.rel ? visited : visited.clone(converted);
            }
        });
        if (result instanceof Project project && project.getProjects().stream().anyMatch(SetReturningProjections::containsCall)) {
            return split(project);
        }
        return result;
    }

    private static RelNode split(Project project) {
        RelNode input = project.getInput();
        int inputWidth = input.getRowType().getFieldCount();
        // Window functions run before the ProjectSet, over the input rows (PostgreSQL's WindowAgg is
        // below its ProjectSet): each RexOver becomes a column of the projection below.
        List<RexNode> windows = new ArrayList<>();
        List<RexNode> expressions = new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                windows.add(over);
                return new RexInputRef(inputWidth + windows.size() - 1, over.getType());
            }
        }.apply(project.getProjects());
        // The ProjectSet copies its input's columns into every output row: keep only those used above or as arguments.
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(expressions, null);
        if (!windows.isEmpty() || used.cardinality() < inputWidth) {
            List<RexNode> kept = new ArrayList<>();
            List<String> names = new ArrayList<>();
            int[] newIndex = new int[inputWidth + windows.size()];
            for (int field : used) {
                newIndex[field] = kept.size();
                kept.add(field < inputWidth ? RexInputRef.of(field, input.getRowType()) : windows.get(field - inputWidth));
                names.add(field < inputWidth ? input.getRowType().getFieldNames().get(field) : "window$" + (field - inputWidth));
            }
            input = LogicalProject.create(input, List.of(), kept, names, Set.of());
            RelNode narrowed = input;
            expressions = new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return RexInputRef.of(newIndex[reference.getIndex()], narrowed.getRowType());
                }
            }.apply(expressions);
        }
        while (true) {
            int width = input.getRowType().getFieldCount();
            List<RexCall> level = new ArrayList<>();
            expressions = new RexShuttle() {
                @Override
                public RexNode visitCall(RexCall call) {
                    if (call.getOperator() instanceof SetReturningOperator
                            && call.getOperands().stream().noneMatch(SetReturningProjections::containsCall)) {
                        level.add(call);
                        return new RexInputRef(width + level.size() - 1, call.getType());
                    }
                    return super.visitCall(call);
                }
            }.apply(expressions);
            if (level.isEmpty()) {
                return project.copy(project.getTraitSet(), input, expressions, project.getRowType());
            }
            input = new ProjectSetRel(project.getCluster(), input.getTraitSet(), input, level);
        }
    }

    private static boolean containsCall(RexNode node) {
        if (node instanceof RexCall call) {
            if (call.getOperator() instanceof SetReturningOperator) {
                return true;
            }
            for (RexNode operand : call.getOperands()) {
                if (containsCall(operand)) {
                    return true;
                }
            }
        }
        return false;
    }
}
