package dev.parallax.planner.query.cost;

import dev.parallax.engine.catalog.ColumnStatistics;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;


/**
 * Join row counts for Calcite's join ordering (LoptOptimizeJoinRule), replacing its fixed 0.15
 * per equality: PostgreSQL's eqjoinsel without histograms, {@code |L| * |R| / max(nd(L.k), nd(R.k))}
 * per key, where nd is the key column's distinct count from ANALYZE statistics (capped by the
 * side's rows). Without statistics the smaller side's key is taken as unique over its table (the
 * foreign-key shape of most joins). SEMI keeps the rows of the left side that can match, ANTI the rest.
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
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        Double leftRows = mq.getRowCount(left);
        Double rightRows = mq.getRowCount(right);
        if (leftRows == null || rightRows == null) {
            return null;
        }
        RexNode condition = RexUtil.pullFactors(join.getCluster().getRexBuilder(), join.getCondition());
        JoinInfo info = JoinInfo.createWithStrictEquality(left, right, condition);
        double selectivity = 1;
        for (int key = 0; key < info.leftKeys.size(); key++) {
            double leftDistinct = distinct(left, info.leftKeys.get(key), leftRows, mq);
            double rightDistinct = distinct(right, info.rightKeys.get(key), rightRows, mq);
            selectivity /= Math.max(1, Math.max(leftDistinct, rightDistinct));
        }
        if (info.leftKeys.isEmpty() && !condition.isAlwaysTrue()) {
            selectivity = RelMdUtil.guessSelectivity(condition);
        } else if (!info.nonEquiConditions.isEmpty()) {
            selectivity *= RelMdUtil.guessSelectivity(RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions));
        }
        double matched = leftRows * rightRows * selectivity;
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

    /** Distinct values of column {@code column} of {@code side}: from ANALYZE, else the side's table rows (a key). */
    private static double distinct(RelNode side, int column, double sideRows, RelMetadataQuery mq) {
        RelColumnOrigin origin = mq.getColumnOrigin(side, column);
        double distinct = Double.NaN;
        double tableRows = Double.NaN;
        if (origin != null && !origin.isDerived()) {
            RelOptTable relOptTable = origin.getOriginTable();
            EngineTable engineTable = relOptTable.unwrap(EngineTable.class);
            if (engineTable != null) {
                Table table = engineTable.table();
                tableRows = table.storage().rowCount();
                TableStatistics statistics = table.statistics();
                ColumnStatistics columnStatistics = statistics == null ? null : statistics.column(origin.getOriginColumnOrdinal());
                if (columnStatistics != null && columnStatistics.distinctCount() > 0) {
                    distinct = columnStatistics.distinctCount();
                }
            }
        }
        if (Double.isNaN(distinct)) {
            distinct = Double.isNaN(tableRows) ? sideRows : tableRows;
        }
        // A filtered side keeps at most its own rows' worth of distinct values (PostgreSQL scales them likewise).
        return Math.min(distinct, Math.max(1, sideRows));
    }
}
