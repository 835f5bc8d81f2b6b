package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.cost.JoinRowCount;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Join → HashJoinNode when the condition has equi keys ({@code a = b} between a column of each
 * side) whose values hash alike, else NestedLoopJoinNode. The rest of the condition becomes the
 * residual. The smaller estimated input becomes the build side: an inner join just swaps, an outer
 * join turns LEFT into RIGHT and back; SEMI and ANTI always build on their right (subquery) side.
 */
final class JoinTranslator {
    /** Integer types hold their values as the same longs, so they hash and compare alike. */
    private static final Set<TypeKind> INTEGERS = EnumSet.of(TypeKind.SMALLINT, TypeKind.INTEGER, TypeKind.BIGINT);
    private static final Set<TypeKind> FLOATS = EnumSet.of(TypeKind.REAL, TypeKind.DOUBLE);
    private static final Set<TypeKind> TEXTS = EnumSet.of(TypeKind.VARCHAR, TypeKind.TEXT);

    private JoinTranslator() {
    }

    static PlanNode translate(Join join, RelTranslator translator) {
        PlanNode left = translator.translate(join.getLeft());
        PlanNode right = translator.translate(join.getRight());
        int leftWidth = left.outputTypes().size();
        int rightWidth = right.outputTypes().size();
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        // (a = b AND x) OR (a = b AND y) has the equi key a = b (TPC-H Q19): pull common factors out of ORs first.
        RexNode condition = RexUtil.pullFactors(rexBuilder, join.getCondition());
        JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), condition);
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<RexNode> residualParts = new ArrayList<>(info.nonEquiConditions);
        for (int key = 0; key < info.leftKeys.size(); key++) {
            int leftKey = info.leftKeys.get(key);
            int rightKey = info.rightKeys.get(key);
            if (info.nullExclusionFlags.get(key)
                    && hashCompatible(left.outputTypes().get(leftKey), right.outputTypes().get(rightKey))) {
                leftKeys.add(leftKey);
                rightKeys.add(rightKey);
            } else {
                residualParts.add(rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                        RexInputRef.of(leftKey, join.getLeft().getRowType()),
                        new RexInputRef(leftWidth + rightKey, join.getRight().getRowType().getFieldList().get(rightKey).getType())));
            }
        }
        RexNode residual = RexUtil.composeConjunction(rexBuilder, residualParts, true);

        JoinType calciteType = switch (join.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            default -> throw new IllegalStateException("unexpected join type " + join.getJoinType());
        };
        boolean swap = calciteType.emitsPairs() && right.estimate().rows() > left.estimate().rows();
        PlanNode probe = swap ? right : left;
        PlanNode build = swap ? left : right;
        JoinType joinType = swap ? switch (calciteType) {
            case LEFT -> JoinType.RIGHT;
            case RIGHT -> JoinType.LEFT;
            default -> calciteType;
        } : calciteType;
        int probeWidth = probe.outputTypes().size();
        int[] outputColumns = new int[calciteType.emitsPairs() ? leftWidth + rightWidth : leftWidth];
        for (int column = 0; column < outputColumns.length; column++) {
            outputColumns[column] = joinedIndex(column, leftWidth, probeWidth, swap);
        }
        Expr residualExpression = null;
        if (residual != null && !residual.isAlwaysTrue()) {
            RexNode remapped = swap ? residual.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef inputRef) {
                    return new RexInputRef(joinedIndex(inputRef.getIndex(), leftWidth, probeWidth, true), inputRef.getType());
                }
            }) : residual;
            residualExpression = translator.rex().translate(remapped);
        }
        int[] probeKeys = (swap ? rightKeys : leftKeys).stream().mapToInt(Integer::intValue).toArray();
        int[] buildKeys = (swap ? leftKeys : rightKeys).stream().mapToInt(Integer::intValue).toArray();
        List<DataType> outputTypes = new ArrayList<>();
        List<DataType> joinedTypes = new ArrayList<>(probe.outputTypes());
        joinedTypes.addAll(build.outputTypes());
        for (int column : outputColumns) {
            outputTypes.add(joinedTypes.get(column));
        }
        double rows = estimatedRows(join, left, right, calciteType);
        if (probeKeys.length == 0) {
            PlanEstimate estimate = translator.cost().nestedLoopJoin(probe.estimate(), build.estimate(), rows,
                    residualExpression, outputTypes);
            return new NestedLoopJoinNode(probe, build, joinType, residualExpression, outputColumns, estimate);
        }
        PlanEstimate estimate = translator.cost().hashJoin(probe.estimate(), build.estimate(), rows,
                probeKeys.length, residualExpression, outputTypes);
        return new HashJoinNode(probe, build, joinType, probeKeys, buildKeys, residualExpression, outputColumns, false, estimate);
    }

    /** Where Calcite's column {@code column} (left columns, then right) sits in the joined row (probe, then build). */
    private static int joinedIndex(int column, int leftWidth, int probeWidth, boolean swap) {
        if (!swap) {
            return column;
        }
        // Swapped: the probe is Calcite's right input, so left column i follows the right input's columns.
        return column < leftWidth ? probeWidth + column : column - leftWidth;
    }

    /**
     * Whether equal values of these key types are equal in the engine's representation, so that
     * the hash join may compare them directly; other pairs stay in the residual condition.
     */
    static boolean hashCompatible(DataType left, DataType right) {
        if (left.equals(right)) {
            return true;
        }
        TypeKind leftKind = left.kind();
        TypeKind rightKind = right.kind();
        if (INTEGERS.contains(leftKind) && INTEGERS.contains(rightKind)
                || FLOATS.contains(leftKind) && FLOATS.contains(rightKind)
                || TEXTS.contains(leftKind) && TEXTS.contains(rightKind)) {
            return true;
        }
        // Scaled decimals compare as longs only at the same scale.
        return leftKind == TypeKind.DECIMAL && rightKind == TypeKind.DECIMAL && left.scale() == right.scale();
    }

    /**
     * Rows of the join from the translated inputs' estimates and the keys' distinct counts
     * ({@link JoinRowCount}, as the join order was chosen), so joins above see the rows it will
     * really have: a composite foreign key (lineitem to partsupp) keeps every probe row, a SEMI
     * join the share of probe rows whose keys the other side holds.
     */
    private static double estimatedRows(Join join, PlanNode left, PlanNode right, JoinType joinType) {
        double leftRows = left.estimate().rows();
        double rightRows = right.estimate().rows();
        Double rows = JoinRowCount.rows(join, leftRows, rightRows, join.getCluster().getMetadataQuery());
        return rows != null ? rows : CostModel.joinRows(joinType, Math.max(leftRows, rightRows), leftRows, rightRows);
    }
}
