package dev.parallax.planner.query.cost;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;


/**
 * Join row counts for Calcite's metadata (the join ordering of {@code JoinEnumerationRule} and
 * LoptOptimizeJoinRule, aggregate and semi-join estimates above joins), replacing its fixed 0.15
 * per equality: {@code |L| * |R| * selectivity} with the keys' selectivity from
 * {@link JoinKeySelectivity} (ANALYZE's distinct counts). SEMI keeps the fraction of the left
 * side's rows whose keys the right side holds ({@link JoinKeySelectivity#matchedFraction}), ANTI
 * the rest.
 */
public final class JoinRowCount implements MetadataHandler<BuiltInMetadata.RowCount> {
    public static final RelMetadataProvider SOURCE =
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinRowCount(), BuiltInMetadata.RowCount.Handler.class);

    private JoinRowCount() {
    }

    @Override
    public MetadataDef<BuiltInMetadata.RowCount> getDef() {
        return BuiltInMetadata.RowCount.DEF;
    }

    /** Estimated rows of {@code join} (called by Calcite's metadata dispatch). */
    public Double getRowCount(Join join, RelMetadataQuery mq) {
        Double leftRows = mq.getRowCount(join.getLeft());
        Double rightRows = mq.getRowCount(join.getRight());
        if (leftRows == null || rightRows == null) {
            return null;
        }
        return rows(join, leftRows, rightRows, mq);
    }

    /**
     * Estimated rows of {@code join} when its inputs give {@code leftRows} and {@code rightRows}
     * (the translation passes its own estimates of the inputs); null for a join type it does not know.
     */
    public static Double rows(Join join, double leftRows, double rightRows, RelMetadataQuery mq) {
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        RexNode condition = RexUtil.pullFactors(join.getCluster().getRexBuilder(), join.getCondition());
        JoinInfo info = JoinInfo.createWithStrictEquality(left, right, condition);
        double selectivity = JoinKeySelectivity.of(left, info.leftKeys, leftRows, right, info.rightKeys, rightRows, mq);
        if (info.leftKeys.isEmpty() && !condition.isAlwaysTrue()) {
            selectivity = RelMdUtil.guessSelectivity(condition);
        } else if (!info.nonEquiConditions.isEmpty()) {
            selectivity *= RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions));
        }
        double matched = leftRows * rightRows * selectivity;
        if (join.getJoinType() == JoinRelType.SEMI || join.getJoinType() == JoinRelType.ANTI) {
            double fraction = JoinKeySelectivity.matchedFraction(left, info.leftKeys, leftRows, right, info.rightKeys, rightRows, mq);
            if (!info.nonEquiConditions.isEmpty()) {
                fraction *= RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                        info.nonEquiConditions));
            }
            matched = leftRows * fraction;
        }
        return switch (join.getJoinType()) {
            case INNER -> Math.max(1, matched);
            case LEFT -> Math.max(leftRows, matched);
            case RIGHT -> Math.max(rightRows, matched);
            case FULL -> Math.max(leftRows + rightRows, matched);
            case SEMI -> Math.max(1, Math.min(leftRows, matched));
            case ANTI -> Math.max(1, leftRows - Math.min(leftRows, matched));
            default -> null;
        };
    }
}
