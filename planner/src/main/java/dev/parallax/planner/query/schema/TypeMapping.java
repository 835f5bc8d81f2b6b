package dev.parallax.planner.query.schema;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Engine types to Calcite types and back. TEXT is an unbounded VARCHAR; BIT(n) and BIT VARYING(n)
 * travel as BINARY(n) and VARBINARY(n) with n counting bits (Calcite has no bit type and the
 * engine no bytea, so the way back is unambiguous); TIMESTAMP has microsecond precision. Arrays
 * are Calcite arrays of their element type; int2vector travels as a TINYINT ARRAY (the engine has
 * no tinyint, so again the way back is unambiguous), oidvector as a BIGINT ARRAY (it comes back a
 * bigint[]: no client reads an oidvector's subscripts).
 */
public final class TypeMapping {
    private TypeMapping() {
    }

    public static RelDataType toCalcite(RelDataTypeFactory factory, DataType type, boolean nullable) {
        RelDataType calcite = switch (type.kind()) {
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case SMALLINT -> factory.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case REAL -> factory.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> factory.createSqlType(SqlTypeName.TIMESTAMP, 6);
            case TIMESTAMPTZ -> factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
            case INTERVAL_YEAR_MONTH -> factory.createSqlIntervalType(
                    new SqlIntervalQualifier(TimeUnit.YEAR, TimeUnit.MONTH, SqlParserPos.ZERO));
            case INTERVAL_DAY_TIME -> factory.createSqlIntervalType(
                    new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO));
            case CHAR -> factory.createSqlType(SqlTypeName.CHAR, bounded(type, 1));
            case VARCHAR -> type.length() == DataType.UNBOUNDED
                    ? factory.createSqlType(SqlTypeName.VARCHAR)
                    : factory.createSqlType(SqlTypeName.VARCHAR, type.length());
            case TEXT -> factory.createSqlType(SqlTypeName.VARCHAR);
            case BIT -> factory.createSqlType(SqlTypeName.BINARY, bounded(type, 1));
            case VARBIT -> type.length() == DataType.UNBOUNDED
                    ? factory.createSqlType(SqlTypeName.VARBINARY)
                    : factory.createSqlType(SqlTypeName.VARBINARY, type.length());
            case ARRAY -> factory.createArrayType(type.isVector() && type.element().kind() == dev.parallax.engine.type.TypeKind.SMALLINT
                    ? factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.TINYINT), true)
                    : toCalcite(factory, type.element(), true), -1);
            case UUID -> factory.createSqlType(SqlTypeName.UUID);
            case NULL -> factory.createSqlType(SqlTypeName.NULL);
        };
        return factory.createTypeWithNullability(calcite, nullable);
    }

    private static int bounded(DataType type, int otherwise) {
        return type.length() == DataType.UNBOUNDED ? otherwise : type.length();
    }

    /**
     * The engine type of a CAST's target: {@link #toEngine} but keeping a timestamp's declared
     * fractional digits below 6 ({@code ::timestamp(3)}), to which the cast rounds. Elsewhere
     * timestamps stay unbounded: PostgreSQL's operators on a timestamp(3) return a plain timestamp.
     */
    public static DataType castTarget(RelDataType type) {
        if (type.getSqlTypeName() == SqlTypeName.ARRAY && type.getComponentType().getSqlTypeName() != SqlTypeName.TINYINT) {
            DataType element = castTarget(type.getComponentType());
            return element.roundsTimestamps() ? DataType.array(element) : toEngine(type);
        }
        DataType engine = toEngine(type);
        int precision = type.getPrecision();
        if ((engine.kind() == dev.parallax.engine.type.TypeKind.TIMESTAMP || engine.kind() == dev.parallax.engine.type.TypeKind.TIMESTAMPTZ)
                && precision >= 0 && precision < DataType.MAX_TIMESTAMP_PRECISION) {
            return DataType.timestamp(precision, engine.kind() == dev.parallax.engine.type.TypeKind.TIMESTAMPTZ);
        }
        return engine;
    }

    public static DataType toEngine(RelDataType type) {
        int precision = type.getPrecision();
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT, SMALLINT -> DataType.SMALLINT;
            case INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case DECIMAL -> DataType.decimal(Math.min(precision, DataType.MAX_DECIMAL_PRECISION), type.getScale());
            case REAL -> DataType.REAL;
            case FLOAT, DOUBLE -> DataType.DOUBLE;
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            // Calcite's instant type, read and printed in the session's zone: PostgreSQL's timestamptz.
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataType.TIMESTAMPTZ;
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> DataType.INTERVAL_YEAR_MONTH;
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR,
                 INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND,
                 INTERVAL_SECOND -> DataType.INTERVAL_DAY_TIME;
            case CHAR -> DataType.charType(precision);
            case VARCHAR -> precision == RelDataType.PRECISION_NOT_SPECIFIED ? DataType.TEXT : DataType.varchar(precision);
            case BINARY -> DataType.bit(precision);
            case VARBINARY -> precision == RelDataType.PRECISION_NOT_SPECIFIED ? DataType.VARBIT : DataType.varbit(precision);
            case UUID -> DataType.UUID;
            case NULL -> DataType.NULL;
            case ARRAY -> {
                RelDataType element = type.getComponentType();
                if (element.getSqlTypeName() == SqlTypeName.TINYINT) {
                    yield DataType.vector(DataType.SMALLINT);
                }
                if (element.getSqlTypeName() == SqlTypeName.ARRAY) {
                    // ARRAY[ARRAY[1,2], ARRAY[3,4]], array_agg of arrays: PostgreSQL would build a 2-D array.
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "multidimensional arrays are not supported: Parallax arrays have one dimension");
                }
                if (element.getSqlTypeName() == SqlTypeName.NULL) {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                            "type %s is not supported", type.getFullTypeString().toLowerCase(java.util.Locale.ROOT));
                }
                yield DataType.array(toEngine(element));
            }
            default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "type %s is not supported", type.getFullTypeString().toLowerCase(java.util.Locale.ROOT));
        };
    }
}
