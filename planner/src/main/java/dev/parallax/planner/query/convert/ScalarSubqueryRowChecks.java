package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.function.ParallaxFunctions;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves a scalar subquery's "more than one row" error from its aggregate to the places that use its
 * value. Calcite aggregates a scalar subquery that may return several rows with SINGLE_VALUE, per
 * correlation group once decorrelated; SINGLE_VALUE fails as soon as any group has a second row, even
 * a group that no outer row joins, that WHERE filtered out, or that only a CASE branch never taken
 * would read. PostgreSQL evaluates the subquery per outer row that reaches it and raises 21000 only
 * there. So each SINGLE_VALUE(v) becomes MIN(v) (the only row's value when there is one) plus a
 * COUNT(*) of the group's rows, the count travels beside the value through projections, filters,
 * joins and sorts as an extra trailing field, and each expression that reads the value reads
 * {@code pg_scalar_subquery_value(value, count)} instead, which raises 21000 for a count above one
 * at the rows it is evaluated for (CASE, COALESCE and lazy AND/OR evaluate it only for the rows
 * that reach it). Any other node (aggregates, windows, set operations, DML, the root) takes the
 * checked value from below, as before but only for its input's rows.
 */
final class ScalarSubqueryRowChecks {
    private final RelBuilder relBuilder;
    private final RexBuilder rexBuilder;
    private final RelDataType countType;

    private ScalarSubqueryRowChecks(RelBuilder relBuilder, RexBuilder rexBuilder) {
        this.relBuilder = relBuilder;
        this.rexBuilder = rexBuilder;
        this.countType = rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
    }

    /** {@code plan} with every SINGLE_VALUE's error moved to the uses of its value; {@code plan} itself when it has none. */
    static RelNode apply(RelNode plan, RelBuilder relBuilder) {
        if (!hasSingleValue(plan)) {
            return plan;
        }
        ScalarSubqueryRowChecks checks = new ScalarSubqueryRowChecks(relBuilder, plan.getCluster().getRexBuilder());
        return checks.checked(checks.visit(plan));
    }

    /**
     * A rewritten node: its first {@code originalFields} fields are the original node's, and
     * {@code counts} maps each of those that holds a scalar subquery's unchecked value to the field
     * of its group's row count, one of the fields after them.
     */
    private record Rewritten(RelNode node, int originalFields, Map<Integer, Integer> counts) {
        static Rewritten unchanged(RelNode node) {
            return new Rewritten(node, node.getRowType().getFieldCount(), Map.of());
        }
    }

    private Rewritten visit(RelNode node) {
        return switch (node) {
            case Aggregate aggregate -> aggregate(aggregate);
            case Project project -> project(project);
            case Filter filter -> filter(filter);
            case Join join -> join(join);
            case Sort sort -> sort(sort);
            default -> other(node);
        };
    }

    /** A node the count does not pass through: its inputs' values are checked below it. */
    private Rewritten other(RelNode node) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : node.getInputs()) {
            RelNode checked = checked(visit(input));
            changed |= checked != input;
            inputs.add(checked);
        }
        return Rewritten.unchanged(changed ? node.copy(node.getTraitSet(), inputs) : node);
    }

    private Rewritten aggregate(Aggregate aggregate) {
        // The aggregate's arguments are read for every input row: check them below it.
        RelNode input = checked(visit(aggregate.getInput()));
        boolean singleValue = aggregate.getAggCallList().stream().anyMatch(call -> call.getAggregation().getKind() == SqlKind.SINGLE_VALUE);
        if (!singleValue || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return Rewritten.unchanged(input == aggregate.getInput() ? aggregate : aggregate.copy(aggregate.getTraitSet(), List.of(input)));
        }
        List<AggregateCall> calls = new ArrayList<>();
        List<AggregateCall> rowCounts = new ArrayList<>();
        Map<Integer, Integer> counts = new HashMap<>();
        int originalFields = aggregate.getRowType().getFieldCount();
        int groupCount = aggregate.getGroupCount();
        for (int index = 0; index < aggregate.getAggCallList().size(); index++) {
            AggregateCall call = aggregate.getAggCallList().get(index);
            if (call.getAggregation().getKind() != SqlKind.SINGLE_VALUE) {
                calls.add(call);
                continue;
            }
            // With at most one row in the group, MIN keeps that row's value (NULL included); with more
            // the value is never read, since the count then raises 21000 wherever it is used.
            calls.add(AggregateCall.create(SqlStdOperatorTable.MIN, false, false, false, List.of(), call.getArgList(), -1, null,
                    RelCollations.EMPTY, call.getType(), call.getName()));
            counts.put(groupCount + index, originalFields + rowCounts.size());
            rowCounts.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, false, false, List.of(), List.of(), -1, null,
                    RelCollations.EMPTY, countType, null));
        }
        calls.addAll(rowCounts);
        Aggregate rewritten = aggregate.copy(aggregate.getTraitSet(), input, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
        return new Rewritten(rewritten, originalFields, counts);
    }

    private Rewritten project(Project project) {
        Rewritten input = visit(project.getInput());
        if (input.counts().isEmpty()) {
            return Rewritten.unchanged(input.node() == project.getInput() ? project : project.copy(project.getTraitSet(), List.of(input.node())));
        }
        RexShuttle checks = checks(input.counts(), identity(input.node().getRowType().getFieldCount()), input.node().getRowType());
        List<RexNode> expressions = new ArrayList<>();
        List<String> names = new ArrayList<>(project.getRowType().getFieldNames());
        Map<Integer, Integer> counts = new HashMap<>();
        List<RexNode> countFields = new ArrayList<>();
        int originalFields = project.getProjects().size();
        for (int index = 0; index < originalFields; index++) {
            RexNode expression = project.getProjects().get(index);
            if (expression instanceof RexInputRef reference && input.counts().containsKey(reference.getIndex())) {
                // Passed on as it is: the value is not used here, so its count goes along with it.
                expressions.add(expression);
                counts.put(index, originalFields + countFields.size());
                countFields.add(RexInputRef.of(input.counts().get(reference.getIndex()), input.node().getRowType()));
                names.add(null);
            } else {
                expressions.add(expression.accept(checks));
            }
        }
        expressions.addAll(countFields);
        RelDataType rowType = RexUtil.createStructType(rexBuilder.getTypeFactory(), expressions, names, SqlValidatorUtil.F_SUGGESTER);
        return new Rewritten(project.copy(project.getTraitSet(), input.node(), expressions, rowType), originalFields, counts);
    }

    private Rewritten filter(Filter filter) {
        Rewritten input = visit(filter.getInput());
        if (input.counts().isEmpty()) {
            return Rewritten.unchanged(input.node() == filter.getInput() ? filter : filter.copy(filter.getTraitSet(), List.of(input.node())));
        }
        RexNode condition = filter.getCondition().accept(checks(input.counts(), identity(input.node().getRowType().getFieldCount()),
                input.node().getRowType()));
        return new Rewritten(filter.copy(filter.getTraitSet(), input.node(), condition), input.originalFields(), input.counts());
    }

    private Rewritten join(Join join) {
        Rewritten left = visit(join.getLeft());
        Rewritten right = visit(join.getRight());
        if (left.counts().isEmpty() && right.counts().isEmpty()) {
            boolean changed = left.node() != join.getLeft() || right.node() != join.getRight();
            return Rewritten.unchanged(changed ? join.copy(join.getTraitSet(), List.of(left.node(), right.node())) : join);
        }
        int leftOriginal = left.originalFields();
        int leftExtra = left.node().getRowType().getFieldCount() - leftOriginal;
        int rightOriginal = right.originalFields();
        int joinedFields = left.node().getRowType().getFieldCount() + right.node().getRowType().getFieldCount();
        // The joined row is [left fields, left counts, right fields, right counts]; a field of the
        // original join at index i is at i below the left's fields, at i + leftExtra after.
        int[] joinedIndex = new int[leftOriginal + rightOriginal];
        Map<Integer, Integer> joinedCounts = new HashMap<>();
        for (int index = 0; index < joinedIndex.length; index++) {
            joinedIndex[index] = index < leftOriginal ? index : index + leftExtra;
        }
        joinedCounts.putAll(left.counts());
        int rightStart = leftOriginal + leftExtra;
        right.counts().forEach((value, count) -> joinedCounts.put(leftOriginal + value, rightStart + count));
        RelNode leftNode = left.node();
        RelNode rightNode = right.node();
        RelDataType joinedType = SqlValidatorUtil.createJoinType(rexBuilder.getTypeFactory(), leftNode.getRowType(),
                rightNode.getRowType(), null, List.of());
        RexNode condition = join.getCondition().accept(checks(joinedCounts, joinedIndex, joinedType));
        Join joined = join.copy(join.getTraitSet(), condition, leftNode, rightNode, join.getJoinType(), join.isSemiJoinDone());
        if (!join.getJoinType().projectsRight()) {
            return new Rewritten(joined, leftOriginal, left.counts());
        }
        // Back to [original fields, counts], so the nodes above keep their field indexes.
        List<Integer> order = new ArrayList<>();
        for (int index = 0; index < leftOriginal; index++) {
            order.add(index);
        }
        for (int index = 0; index < rightOriginal; index++) {
            order.add(rightStart + index);
        }
        for (int index = leftOriginal; index < rightStart; index++) {
            order.add(index);
        }
        for (int index = rightStart + rightOriginal; index < joinedFields; index++) {
            order.add(index);
        }
        int[] position = new int[joinedFields];
        for (int index = 0; index < order.size(); index++) {
            position[order.get(index)] = index;
        }
        Map<Integer, Integer> counts = new HashMap<>();
        joinedCounts.forEach((value, count) -> counts.put(value, position[count]));
        if (leftExtra == 0) {
            return new Rewritten(joined, leftOriginal + rightOriginal, counts);
        }
        List<RexNode> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int index = 0; index < order.size(); index++) {
            fields.add(RexInputRef.of(order.get(index), joined.getRowType()));
            names.add(index < leftOriginal + rightOriginal ? joined.getRowType().getFieldNames().get(order.get(index)) : null);
        }
        RelNode reordered = relBuilder.push(joined).project(fields, names, true).build();
        return new Rewritten(reordered, leftOriginal + rightOriginal, counts);
    }

    private Rewritten sort(Sort sort) {
        Rewritten input = visit(sort.getInput());
        boolean sortsByValue = sort.getCollation().getFieldCollations().stream()
                .map(RelFieldCollation::getFieldIndex).anyMatch(input.counts()::containsKey);
        RelNode below = sortsByValue ? checked(input) : input.node();
        RelNode copy = below == sort.getInput() ? sort : sort.copy(sort.getTraitSet(), List.of(below));
        return sortsByValue ? Rewritten.unchanged(copy) : new Rewritten(copy, input.originalFields(), input.counts());
    }

    /** The node's original fields, each scalar subquery value checked against its count: every row raises 21000 that has more than one. */
    private RelNode checked(Rewritten rewritten) {
        if (rewritten.counts().isEmpty()) {
            return rewritten.node();
        }
        RelNode node = rewritten.node();
        List<RexNode> fields = new ArrayList<>();
        for (int index = 0; index < rewritten.originalFields(); index++) {
            RexInputRef field = RexInputRef.of(index, node.getRowType());
            Integer count = rewritten.counts().get(index);
            fields.add(count == null ? field : checkedValue(field, RexInputRef.of(count, node.getRowType())));
        }
        List<String> names = node.getRowType().getFieldNames().subList(0, rewritten.originalFields());
        return relBuilder.push(node).project(fields, names, true).build();
    }

    private RexNode checkedValue(RexNode value, RexNode count) {
        return rexBuilder.makeCall(value.getType(), ParallaxFunctions.SCALAR_SUBQUERY_VALUE, List.of(value, count));
    }

    /** Renumbers fields by {@code newIndex} and reads each field of {@code counts} (old indexes to new count fields) checked. */
    private RexShuttle checks(Map<Integer, Integer> counts, int[] newIndex, RelDataType rowType) {
        return new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                RexInputRef renumbered = newIndex[reference.getIndex()] == reference.getIndex() ? reference
                        : new RexInputRef(newIndex[reference.getIndex()], reference.getType());
                Integer count = counts.get(reference.getIndex());
                return count == null ? renumbered : checkedValue(renumbered, RexInputRef.of(count, rowType));
            }
        };
    }

    private static int[] identity(int size) {
        int[] identity = new int[size];
        for (int index = 0; index < size; index++) {
            identity[index] = index;
        }
        return identity;
    }

    private static boolean hasSingleValue(RelNode plan) {
        boolean[] found = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof Aggregate aggregate
                        && aggregate.getAggCallList().stream().anyMatch(call -> call.getAggregation().getKind() == SqlKind.SINGLE_VALUE)) {
                    found[0] = true;
                } else {
                    super.visit(node, ordinal, parent);
                }
            }
        }.go(plan);
        return found[0];
    }
}
