package dev.parallax.planner.query.function;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's arithmetic on dates and whole days, which standard SQL (and so Calcite) lacks:
 * {@code date - date} is the number of days between them (an integer), {@code date + integer},
 * {@code integer + date} and {@code date - integer} move a date by days and stay dates; and
 * {@code timestamp - timestamp}, the interval between them (a date with a timestamp is converted to one, a date
 * or timestamp with a timestamp with time zone to that, in the session's zone). The
 * validator puts these operators in place of {@code +} and {@code -} when the operands' types ask
 * for them ({@link #operatorFor}); the engine evaluates them as ADD and SUBTRACT on day numbers.
 */
public final class DateArithmetic {
    /**
     * {@code date - date}: integer days; {@code date - integer}: a date; {@code timestamp - timestamp}:
     * an interval. One operator for all:
     * Calcite re-resolves a call by name, syntax and kind, so two operators named {@code -} of one
     * kind would be ambiguous.
     */
    public static final SqlBinaryOperator DATE_MINUS = new SqlBinaryOperator("-", SqlKind.OTHER,
            SqlStdOperatorTable.MINUS.getLeftPrec(), true, DateArithmetic::differenceType, null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.DATE),
                    OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP),
                    OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.DATE),
                    OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.TIMESTAMP)));
    /** {@code date + integer} and {@code integer + date}: a date. */
    public static final SqlBinaryOperator DATE_PLUS_DAYS = new SqlBinaryOperator("+", SqlKind.OTHER,
            SqlStdOperatorTable.PLUS.getLeftPrec(), true, ReturnTypes.explicit(SqlTypeName.DATE)
            .andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.DATE)));
    private DateArithmetic() {
    }

    /**
     * The operator for {@code left kind right} when PostgreSQL has a date operator for those
     * operand types, else null (the standard operator applies). Days are PostgreSQL's int4:
     * integer and smallint operands qualify, bigint does not (PostgreSQL has no date + bigint).
     */
    public static SqlOperator operatorFor(SqlKind kind, RelDataType left, RelDataType right) {
        SqlTypeName leftType = left.getSqlTypeName();
        SqlTypeName rightType = right.getSqlTypeName();
        if (kind == SqlKind.MINUS && (leftType == SqlTypeName.DATE && isDays(rightType)
                || isDateOrTimestamp(leftType) && isDateOrTimestamp(rightType))) {
            return DATE_MINUS;
        }
        if (kind == SqlKind.PLUS && (leftType == SqlTypeName.DATE && isDays(rightType) || isDays(leftType) && rightType == SqlTypeName.DATE)) {
            return DATE_PLUS_DAYS;
        }
        return null;
    }

    private static RelDataType differenceType(SqlOperatorBinding binding) {
        RelDataTypeFactory types = binding.getTypeFactory();
        SqlTypeName left = binding.getOperandType(0).getSqlTypeName();
        SqlTypeName right = binding.getOperandType(1).getSqlTypeName();
        // timestamp - timestamp: the microseconds between them, an interval (shown as days and time, as PostgreSQL's justified one).
        boolean timestamps = isDateOrTimestamp(left) && isDateOrTimestamp(right) && (left != SqlTypeName.DATE || right != SqlTypeName.DATE);
        RelDataType type = timestamps
                ? types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO))
                : types.createSqlType(right == SqlTypeName.DATE ? SqlTypeName.INTEGER : SqlTypeName.DATE);
        boolean nullable = binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable();
        return types.createTypeWithNullability(type, nullable);
    }

    /**
     * Whether {@code left - right} mixes a date and a timestamp: PostgreSQL converts the date to a
     * timestamp (midnight) and subtracts timestamps; the validator casts it ({@link #operatorFor}
     * answers {@link #DATE_MINUS} for the pair).
     */
    public static boolean mixesDateAndTimestamp(RelDataType left, RelDataType right) {
        SqlTypeName leftType = left.getSqlTypeName();
        SqlTypeName rightType = right.getSqlTypeName();
        return isDateOrTimestamp(leftType) && isDateOrTimestamp(rightType) && leftType != rightType;
    }

    /**
     * The type both sides of a mixed subtraction are brought to: a timestamp with time zone when either is one
     * (the other read in the session's zone), else a timestamp.
     */
    public static SqlTypeName commonTimestampType(RelDataType left, RelDataType right) {
        return left.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                || right.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP;
    }

    private static boolean isDateOrTimestamp(SqlTypeName type) {
        return type == SqlTypeName.DATE || type == SqlTypeName.TIMESTAMP || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static boolean isDays(SqlTypeName type) {
        return type == SqlTypeName.INTEGER || type == SqlTypeName.SMALLINT || type == SqlTypeName.TINYINT;
    }
}
