package dev.parallax.planner.query.convert;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.Set;

/**
 * Calcite's convertlets, except that avg, stddev and the variances stay calls of themselves.
 * Calcite expands them into arithmetic on sum and count ({@code cast(sum(x) / count(x))} for avg),
 * which is where it converts them over a window: the arithmetic would then run as expressions of
 * Calcite's types, not as PostgreSQL's aggregates (avg of integers is numeric with the division's
 * scale), so avg is left to the engine's aggregate and the others are refused as window functions
 * rather than answered in the wrong type. Plain aggregates do not convert their calls here.
 */
public final class ParallaxConvertletTable implements SqlRexConvertletTable {
    public static final ParallaxConvertletTable INSTANCE = new ParallaxConvertletTable();

    private static final Set<SqlOperator> UNEXPANDED = Set.of(SqlStdOperatorTable.AVG, SqlStdOperatorTable.STDDEV,
            SqlStdOperatorTable.STDDEV_POP, SqlStdOperatorTable.STDDEV_SAMP, SqlStdOperatorTable.VARIANCE,
            SqlStdOperatorTable.VAR_POP, SqlStdOperatorTable.VAR_SAMP);

    private ParallaxConvertletTable() {
    }

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (UNEXPANDED.contains(call.getOperator())) {
            return StandardConvertletTable.INSTANCE::convertCall;
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }
}
