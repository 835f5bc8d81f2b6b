package dev.parallax.planner.query.function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.List;

/**
 * PostgreSQL's {@code generate_series(timestamp, timestamp, interval)}, the one form besides the
 * integer ones, as generate_series in FROM ({@link ParallaxFunctions#GENERATE_SERIES}) and in a
 * select list ({@link SetReturningOperator#GENERATE_SERIES}) both accept it: start and stop
 * timestamps or dates (PostgreSQL casts a date to a timestamp) or quoted literals, the step an
 * interval of either kind, and the values timestamps, or timestamps with time zone when start or
 * stop is one (months then step in the session's local time). PostgreSQL would run dates and quoted
 * literals as timestamp with time zone too; they give timestamps, as they did before Parallax had it.
 */
final class SeriesArguments {
    private SeriesArguments() {
    }

    /**
     * Whether {@code operands} of types {@code types} are the timestamp form: three arguments,
     * start and stop dates, timestamps, quoted literals or NULL, an interval step, or a quoted
     * literal or NULL step beside a date or timestamp.
     */
    static boolean isTimestampForm(List<SqlNode> operands, List<RelDataType> types) {
        if (types.size() != 3) {
            return false;
        }
        boolean datetime = false;
        for (int index = 0; index < 2; index++) {
            SqlTypeName name = types.get(index).getSqlTypeName();
            boolean isDatetime = name == SqlTypeName.DATE || name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            boolean untyped = name == SqlTypeName.NULL || name == SqlTypeName.UNKNOWN
                    || SqlTypeUtil.inCharFamily(types.get(index)) && operands.get(index) instanceof SqlCharStringLiteral;
            if (!isDatetime && !untyped) {
                return false;
            }
            datetime |= isDatetime;
        }
        RelDataType step = types.get(2);
        boolean interval = SqlTypeUtil.isInterval(step);
        boolean untypedStep = step.getSqlTypeName() == SqlTypeName.NULL || step.getSqlTypeName() == SqlTypeName.UNKNOWN
                || SqlTypeUtil.inCharFamily(step) && operands.get(2) instanceof SqlCharStringLiteral;
        // Without a typed argument ('2024-01-01', '2024-01-02', '1 day') PostgreSQL finds no unique
        // function, and (NULL, NULL, NULL) is the integer form, as it was.
        return interval || untypedStep && datetime;
    }

    /** The type of the timestamp form's values: a timestamp with time zone when start or stop is one, else a timestamp. */
    static RelDataType timestampType(RelDataTypeFactory factory, List<RelDataType> types) {
        boolean withTimeZone = types.size() >= 2 && (types.get(0).getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                || types.get(1).getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
        return factory.createSqlType(withTimeZone ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP, 6);
    }
}
