package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.function.StatisticsAggregates;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Calcite's convertlets, except that avg, stddev and the variances ({@link StatisticsAggregates})
 * stay calls of themselves.
 * Calcite expands them into arithmetic on sum and count ({@code cast(sum(x) / count(x))} for avg),
 * which is where it converts them over a window: the arithmetic would then run as expressions of
 * Calcite's types, not as PostgreSQL's aggregates (avg of integers is numeric with the division's
 * scale), so they are left to the engine's aggregates. Plain aggregates do not convert their calls here.
 */
public final class ParallaxConvertletTable implements SqlRexConvertletTable {
    public static final ParallaxConvertletTable INSTANCE = new ParallaxConvertletTable();

    private static final Set<SqlOperator> UNEXPANDED = Stream.concat(Stream.of(SqlStdOperatorTable.AVG),
            StatisticsAggregates.ALL.stream()).collect(Collectors.toUnmodifiableSet());

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
