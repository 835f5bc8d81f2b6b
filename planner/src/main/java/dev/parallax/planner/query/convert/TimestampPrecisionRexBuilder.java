package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's RexBuilder, except that a cast of a timestamp literal to fewer fractional digits
 * ({@code CAST(TIMESTAMP '2020-01-01 23:59:59.9' AS TIMESTAMP(0))}) stays a cast: Calcite would fold
 * it into a literal truncated to the digits, where PostgreSQL rounds (2020-01-02 00:00:00); the
 * engine's cast rounds as PostgreSQL does.
 */
public final class TimestampPrecisionRexBuilder extends RexBuilder {
    public TimestampPrecisionRexBuilder(RelDataTypeFactory typeFactory) {
        super(typeFactory);
    }

    @Override
    public RexNode makeCast(SqlParserPos position, RelDataType type, RexNode expression, boolean matchNullability, boolean safe,
                            RexLiteral format) {
        if (expression instanceof RexLiteral literal && !literal.isNull() && narrowsTimestamp(literal.getType(), type)) {
            return makeAbstractCast(position, type, expression, safe, format);
        }
        return super.makeCast(position, type, expression, matchNullability, safe, format);
    }

    private static boolean narrowsTimestamp(RelDataType source, RelDataType target) {
        SqlTypeName name = target.getSqlTypeName();
        return (name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                && source.getSqlTypeName() == name && target.getPrecision() < source.getPrecision();
    }
}
