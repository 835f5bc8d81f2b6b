package dev.parallax.planner.query.schema;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL-like typing within the engine's exact decimals (at most 18 digits, a scaled long):
 * <ul>
 *   <li>sum(smallint|integer) is bigint; sum(bigint) and sum(numeric(p,s)) are numeric(18,s);</li>
 *   <li>numeric division and avg (PostgreSQL's avg is sum / count) have the scale of
 *       {@link #quotientScale}: PostgreSQL's select_div_scale asks for at least 16 significant
 *       digits, per value; a fixed-scale type of 18 digits can only give what its integer digits
 *       leave;</li>
 *   <li>integer / integer stays integer (truncating, as PostgreSQL);</li>
 *   <li>timestamps carry microseconds.</li>
 * </ul>
 * Decimal results of + - * keep Calcite's rules capped at 18 digits; the engine checks overflow.
 */
public final class ParallaxTypeSystem extends RelDataTypeSystemImpl {
    public static final ParallaxTypeSystem INSTANCE = new ParallaxTypeSystem();
    private static final int MAX_DECIMAL = 18;
    /** PostgreSQL's NUMERIC_MIN_SIG_DIGITS: the significant digits select_div_scale aims at. */
    private static final int MIN_SIGNIFICANT_DIGITS = 16;
    /**
     * The fraction digits a quotient keeps even when its integer-digit bound leaves fewer: the
     * bound of a ratio of two sums (numeric(18,s) each) is 18 integer digits, which would leave
     * none; six keep such ratios useful, and a quotient past 10^12 then raises 22003.
     */
    private static final int QUOTIENT_MIN_SCALE = 6;

    private ParallaxTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIME -> 6;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 6;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL : super.getMaxScale(typeName);
    }

    /**
     * PostgreSQL types a string literal as unknown, resolved to text when VALUES rows, UNION
     * branches or CASE results meet: {@code values ('ab'), ('x')} returns {@code x}, not the
     * blank-padded {@code x } of a CHAR(2). Calcite types literals CHAR(n); making the common
     * type of CHARs of different lengths a VARCHAR keeps the values unpadded. Bit strings travel
     * as BINARY(n) and get VARBINARY (bit varying) the same way only when their lengths differ;
     * equal lengths stay BINARY(n), so {@code B'1010' & B'0110'} stays bit(4).
     */
    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
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
            // The average lies within the arguments' range, so their integer digits bound it.
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL,
                    quotientScale(integerDigits(argumentType), scaleOf(argumentType), 0));
            default -> typeFactory.createSqlType(SqlTypeName.DOUBLE);
        };
        return typeFactory.createTypeWithNullability(average, argumentType.isNullable());
    }

    /**
     * The numeric type of a variance ({@code variance} true) or standard deviation of an integer or
     * numeric argument: the scale of {@link #quotientScale} for the integer digits the value can
     * have. A deviation is below 1.42 times the largest magnitude of the argument's type (two values
     * at opposite ends of the range, with N - 1 = 1), so one digit more than the argument's; a
     * variance, its square, twice as many and one more (capped at 18, where the scale falls to 6).
     * PostgreSQL gives each value at least 16 significant digits; a fixed scale cannot, as for avg.
     */
    public static RelDataType statisticType(RelDataTypeFactory typeFactory, RelDataType argumentType, boolean variance) {
        int digits = integerDigits(argumentType);
        int resultDigits = Math.min(MAX_DECIMAL, variance ? 2 * digits + 1 : digits + 1);
        return typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, quotientScale(resultDigits, scaleOf(argumentType), 0));
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType dividendType, RelDataType divisorType) {
        if (!isExactNumeric(dividendType) || !isExactNumeric(divisorType)
                || (dividendType.getSqlTypeName() != SqlTypeName.DECIMAL && divisorType.getSqlTypeName() != SqlTypeName.DECIMAL)) {
            return null;
        }
        // |dividend| < 10^(p1 - s1) and a non-zero |divisor| >= 10^-s2 bound the quotient's integer digits.
        int quotientIntegerDigits = integerDigits(dividendType) + scaleOf(divisorType);
        int scale = quotientScale(quotientIntegerDigits, scaleOf(dividendType), scaleOf(divisorType));
        return typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL, scale);
    }

    /**
     * {@code %} of two integers has the wider operand's type, as PostgreSQL's int2mod, int4mod and
     * int8mod after its usual promotion ({@code bigint % integer} is bigint); Calcite would give the
     * divisor's type. With a numeric operand Calcite's rule holds: numeric, the larger scale.
     */
    @Override
    public RelDataType deriveDecimalModType(RelDataTypeFactory typeFactory, RelDataType dividendType, RelDataType divisorType) {
        int dividendRank = integerRank(dividendType.getSqlTypeName());
        int divisorRank = integerRank(divisorType.getSqlTypeName());
        if (dividendRank >= 0 && divisorRank >= 0) {
            return typeFactory.createSqlType(dividendRank >= divisorRank ? dividendType.getSqlTypeName() : divisorType.getSqlTypeName());
        }
        return super.deriveDecimalModType(typeFactory, dividendType, divisorType);
    }

    private static int integerRank(SqlTypeName name) {
        return switch (name) {
            case TINYINT -> 0;
            case SMALLINT -> 1;
            case INTEGER -> 2;
            case BIGINT -> 3;
            default -> -1;
        };
    }

    /**
     * The scale of a quotient whose integer part has at most {@code integerDigits} digits.
     * PostgreSQL picks, per value, enough fraction digits for 16 significant digits and at least
     * the inputs' scales (select_div_scale); its numeric type carries a scale per value. Here the
     * scale is fixed per expression and the value must fit 18 digits, so the rule is: 16 fraction
     * digits capped by the room the integer digits leave in 18 ({@code 18 - integerDigits}), never
     * below {@link #QUOTIENT_MIN_SCALE} nor either input's scale. A quotient below 100 whose
     * PostgreSQL scale is 16 (a value of 1 up to 10^4 with small inputs, e.g. 10.0 / 4 or avg over
     * numeric(4,2)) then prints exactly as PostgreSQL prints it; wider operands get fewer digits.
     * Constant quotients are folded with PostgreSQL's per-value rule instead.
     */
    public static int quotientScale(int integerDigits, int dividendScale, int divisorScale) {
        int room = Math.min(MIN_SIGNIFICANT_DIGITS, Math.max(QUOTIENT_MIN_SCALE, MAX_DECIMAL - integerDigits));
        return Math.min(MAX_DECIMAL, Math.max(room, Math.max(dividendScale, divisorScale)));
    }

    private static int integerDigits(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            case DECIMAL -> type.getPrecision() - type.getScale();
            default -> MAX_DECIMAL;
        };
    }

    private static int scaleOf(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
    }

    private static boolean isExactNumeric(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }
}
