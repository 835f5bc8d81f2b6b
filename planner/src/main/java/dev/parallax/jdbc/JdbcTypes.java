package dev.parallax.jdbc;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.UuidValue;

import java.sql.Types;

/**
 * How each engine type presents itself to JDBC: the {@link Types} code and the PostgreSQL type
 * name pgJDBC reports (boolean is {@code Types.BIT} named {@code bool}, text is {@code VARCHAR}
 * named {@code text}, ...), the Java class {@code getObject} returns, and sizes for metadata.
 */
final class JdbcTypes {
    /** What pgJDBC reports as the size of a type without a length limit. */
    static final int UNLIMITED_LENGTH = Integer.MAX_VALUE;

    private JdbcTypes() {
    }

    static int sqlType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Types.BIT;
            case SMALLINT -> Types.SMALLINT;
            case INTEGER -> Types.INTEGER;
            case BIGINT -> Types.BIGINT;
            case DECIMAL -> Types.NUMERIC;
            case REAL -> Types.REAL;
            case DOUBLE -> Types.DOUBLE;
            case DATE -> Types.DATE;
            // pgJDBC reports timestamptz as TIMESTAMP too.
            case TIMESTAMP, TIMESTAMPTZ -> Types.TIMESTAMP;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, VARBIT, UUID, NULL -> Types.OTHER;
            case CHAR -> Types.CHAR;
            case VARCHAR, TEXT -> Types.VARCHAR;
            case BIT -> Types.BIT;
            case ARRAY -> Types.ARRAY;
        };
    }

    /** PostgreSQL's internal type name ({@code pg_type.typname}), as pgJDBC's getColumnTypeName gives it. */
    static String typeName(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "bool";
            case SMALLINT -> "int2";
            case INTEGER -> "int4";
            case BIGINT -> "int8";
            case DECIMAL -> "numeric";
            case REAL -> "float4";
            case DOUBLE -> "float8";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> "interval";
            case CHAR -> "bpchar";
            case VARCHAR -> "varchar";
            case TEXT -> "text";
            case BIT -> "bit";
            case VARBIT -> "varbit";
            case UUID -> "uuid";
            case ARRAY -> dev.parallax.engine.type.PostgresType.of(type).typeName();
            case NULL -> "unknown";
        };
    }

    /** The class of what {@code ResultSet.getObject} returns (see {@code ValueObjects}). */
    static String className(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "java.lang.Boolean";
            case SMALLINT -> "java.lang.Short";
            case INTEGER -> "java.lang.Integer";
            case BIGINT -> "java.lang.Long";
            case DECIMAL -> "java.math.BigDecimal";
            case REAL -> "java.lang.Float";
            case DOUBLE -> "java.lang.Double";
            case DATE -> "java.time.LocalDate";
            case TIMESTAMP -> "java.time.LocalDateTime";
            case TIMESTAMPTZ -> "java.time.OffsetDateTime";
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> "dev.parallax.engine.type.ValueObjects$Interval";
            case CHAR, VARCHAR, TEXT, BIT, VARBIT, NULL -> "java.lang.String";
            case ARRAY -> "java.sql.Array";
            case UUID -> "java.util.UUID";
        };
    }

    /**
     * Column size in JDBC's sense: digits for numbers, characters for text and for the text form of
     * dates and timestamps, bits for bit strings; {@link #UNLIMITED_LENGTH} when unbounded.
     */
    static int precision(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            case DECIMAL -> type.precision();
            case REAL -> 8;
            case DOUBLE -> 17;
            case DATE -> 13;
            case TIMESTAMP -> 29;
            case TIMESTAMPTZ -> 35;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> 49;
            case CHAR, VARCHAR, BIT, VARBIT -> type.length() == DataType.UNBOUNDED ? UNLIMITED_LENGTH : type.length();
            case TEXT, ARRAY, NULL -> UNLIMITED_LENGTH;
            case UUID -> UuidValue.TEXT_LENGTH;
        };
    }

    /** Digits after the decimal point: a numeric's scale, a timestamp's 6 fractional digits, else 0. */
    static int scale(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> type.scale();
            case TIMESTAMP, TIMESTAMPTZ, INTERVAL_DAY_TIME -> 6;
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DATE, INTERVAL_YEAR_MONTH, CHAR, VARCHAR, TEXT, BIT, VARBIT,
                 ARRAY, UUID, NULL -> 0;
        };
    }

    /** Characters of the widest text form (sign and decimal point included for numbers). */
    static int displaySize(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case SMALLINT -> 6;
            case INTEGER -> 11;
            case BIGINT -> 20;
            case DECIMAL -> type.precision() + (type.scale() > 0 ? 2 : 1);
            case REAL -> 15;
            case DOUBLE -> 25;
            case DATE -> 13;
            case TIMESTAMP -> 29;
            case TIMESTAMPTZ -> 35;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> 49;
            case CHAR, VARCHAR, BIT, VARBIT -> type.length() == DataType.UNBOUNDED ? UNLIMITED_LENGTH : type.length();
            case TEXT, ARRAY, NULL -> UNLIMITED_LENGTH;
            case UUID -> UuidValue.TEXT_LENGTH;
        };
    }

    static boolean isSigned(DataType type) {
        return type.kind().isNumeric();
    }

    static boolean isCaseSensitive(DataType type) {
        return type.kind().isText();
    }

    /** The radix in which {@link #precision} counts: 2 for bit strings, else 10. */
    static int radix(DataType type) {
        return type.kind().isBitString() ? 2 : 10;
    }
}
