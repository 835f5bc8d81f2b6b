package dev.parallax.planner.query.schema;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL-like typing within the engine's exact decimals (at most 18 digits, a scaled long):
 * <ul>
 *   <li>sum(smallint|integer) is bigint; sum(bigint) and sum(numeric(p,s)) are numeric(18,s);</li>
 *   <li>avg of integers is numeric(18,6); avg(numeric(p,s)) is numeric(18, max(s,6)). PostgreSQL
 *       prints up to 16 fraction digits for avg; six keeps 12 integer digits and matches the
 *       digits TPC-H answers show;</li>
 *   <li>numeric division has scale max(6, s1, s2) and precision 18, so integer digits remain;</li>
 *   <li>integer / integer stays integer (truncating, as PostgreSQL);</li>
 *   <li>timestamps carry microseconds.</li>
 * </ul>
 * Decimal results of + - * keep Calcite's rules capped at 18 digits; the engine checks overflow.
 */
public final class ParallaxTypeSystem extends RelDataTypeSystemImpl {
    public static final ParallaxTypeSystem INSTANCE = new ParallaxTypeSystem();
    private static final int MAX_DECIMAL = 18;
    private static final int AVERAGE_MIN_SCALE = 6;

    private ParallaxTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL;
            case TIMESTAMP, TIME -> 6;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL;
            case TIMESTAMP -> 6;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL : super.getMaxScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType sum = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> typeFactory.createSqlType(SqlTypeName.BIGINT);
            case BIGINT -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, 0);
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, argumentType.getScale());
            default -> argumentType;
        };
        return typeFactory.createTypeWithNullability(sum, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType average = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, AVERAGE_MIN_SCALE);
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL,
                    Math.max(argumentType.getScale(), AVERAGE_MIN_SCALE));
            default -> typeFactory.createSqlType(SqlTypeName.DOUBLE);
        };
        return typeFactory.createTypeWithNullability(average, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType dividendType, RelDataType divisorType) {
        if (!isExactNumeric(dividendType) || !isExactNumeric(divisorType)
                || (dividendType.getSqlTypeName() != SqlTypeName.DECIMAL && divisorType.getSqlTypeName() != SqlTypeName.DECIMAL)) {
            return null;
        }
        int scale = Math.max(AVERAGE_MIN_SCALE, Math.max(dividendType.getScale(), divisorType.getScale()));
        return typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, scale);
    }

    private static boolean isExactNumeric(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }
}
