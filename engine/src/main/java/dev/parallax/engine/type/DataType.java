package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Objects;

/**
 * A SQL type: its kind plus modifiers. {@code precision}/{@code scale} are used by DECIMAL;
 * {@code precision} also by TIMESTAMP and TIMESTAMPTZ: the declared fractional digits of seconds
 * (0 to 6, {@link #UNBOUNDED} when absent), to which a cast or a store rounds as PostgreSQL does;
 * {@code length} by CHAR, VARCHAR, BIT and VARBIT ({@link #UNBOUNDED} when absent); {@code element}
 * by ARRAY only (null otherwise), whose {@code length} is {@link #VECTOR} for PostgreSQL's
 * {@code int2vector} / {@code oidvector} (subscripts from 0, text form {@code 1 2}) and
 * {@link #UNBOUNDED} for a plain array. Nullability is not part of the type: every column may hold
 * NULL unless a constraint says otherwise.
 */
public record DataType(TypeKind kind, int precision, int scale, int length, DataType element) {
    public static final int UNBOUNDED = -1;
    /** {@code length} of an ARRAY type that is PostgreSQL's int2vector or oidvector. */
    public static final int VECTOR = 0;
    /** Largest DECIMAL precision held exactly as a scaled long. */
    public static final int MAX_DECIMAL_PRECISION = 18;

    public static final DataType BOOLEAN = of(TypeKind.BOOLEAN);
    public static final DataType SMALLINT = of(TypeKind.SMALLINT);
    public static final DataType INTEGER = of(TypeKind.INTEGER);
    public static final DataType BIGINT = of(TypeKind.BIGINT);
    public static final DataType REAL = of(TypeKind.REAL);
    public static final DataType DOUBLE = of(TypeKind.DOUBLE);
    public static final DataType DATE = of(TypeKind.DATE);
    /** Largest fractional-seconds precision of a timestamp: values hold microseconds. */
    public static final int MAX_TIMESTAMP_PRECISION = 6;

    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, UNBOUNDED, 0, UNBOUNDED);
    public static final DataType TIMESTAMPTZ = new DataType(TypeKind.TIMESTAMPTZ, UNBOUNDED, 0, UNBOUNDED);
    public static final DataType INTERVAL_YEAR_MONTH = of(TypeKind.INTERVAL_YEAR_MONTH);
    public static final DataType INTERVAL_DAY_TIME = of(TypeKind.INTERVAL_DAY_TIME);
    public static final DataType TEXT = of(TypeKind.TEXT);
    public static final DataType VARBIT = of(TypeKind.VARBIT);
    public static final DataType UUID = of(TypeKind.UUID);
    public static final DataType NULL = of(TypeKind.NULL);

    public DataType {
        Objects.requireNonNull(kind, "kind");
        if ((kind == TypeKind.ARRAY) != (element != null)) {
            throw new IllegalArgumentException("an ARRAY type and only it has an element type: " + kind);
        }
    }

    /** A type without an element type (every kind but ARRAY). */
    public DataType(TypeKind kind, int precision, int scale, int length) {
        this(kind, precision, scale, length, null);
    }

    /** A one-dimensional array of {@code element} (itself not an array), subscripts from 1 by default. */
    public static DataType array(DataType element) {
        if (element.kind == TypeKind.ARRAY || element.kind == TypeKind.NULL) {
            throw new IllegalArgumentException("no array of " + element);
        }
        return new DataType(TypeKind.ARRAY, 0, 0, UNBOUNDED, element);
    }

    /** PostgreSQL's int2vector (element SMALLINT) or oidvector (element BIGINT, Parallax's oid). */
    public static DataType vector(DataType element) {
        if (element.kind != TypeKind.SMALLINT && element.kind != TypeKind.BIGINT) {
            throw new IllegalArgumentException("no vector of " + element);
        }
        return new DataType(TypeKind.ARRAY, 0, 0, VECTOR, element);
    }

    /** True for int2vector and oidvector. */
    public boolean isVector() {
        return kind == TypeKind.ARRAY && length == VECTOR;
    }

    private static DataType of(TypeKind kind) {
        return new DataType(kind, 0, 0, UNBOUNDED);
    }

    public static DataType decimal(int precision, int scale) {
        if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "NUMERIC precision %d is not supported: Parallax holds decimals of precision 1 to %d exactly",
                    precision, MAX_DECIMAL_PRECISION);
        }
        if (scale < 0 || scale > precision) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE,
                    "NUMERIC scale %d must be between 0 and precision %d", scale, precision);
        }
        return new DataType(TypeKind.DECIMAL, precision, scale, UNBOUNDED);
    }

    /**
     * timestamp(p) ({@code zoned}: timestamptz(p)), p from 0 to {@link #MAX_TIMESTAMP_PRECISION}, or
     * {@link #UNBOUNDED} for the type without a modifier.
     */
    public static DataType timestamp(int precision, boolean zoned) {
        if (precision != UNBOUNDED && (precision < 0 || precision > MAX_TIMESTAMP_PRECISION)) {
            throw new IllegalArgumentException("timestamp precision " + precision);
        }
        return precision == UNBOUNDED ? (zoned ? TIMESTAMPTZ : TIMESTAMP)
                : new DataType(zoned ? TypeKind.TIMESTAMPTZ : TypeKind.TIMESTAMP, precision, 0, UNBOUNDED);
    }

    /** Whether this is timestamp(p) or timestamptz(p) with p below 6: values cast or stored to it are rounded. */
    public boolean roundsTimestamps() {
        return (kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ)
                && precision != UNBOUNDED && precision < MAX_TIMESTAMP_PRECISION;
    }

    public static DataType charType(int length) {
        return new DataType(TypeKind.CHAR, 0, 0, length);
    }

    public static DataType varchar(int length) {
        return new DataType(TypeKind.VARCHAR, 0, 0, length);
    }

    public static DataType bit(int length) {
        return new DataType(TypeKind.BIT, 0, 0, length);
    }

    public static DataType varbit(int length) {
        return new DataType(TypeKind.VARBIT, 0, 0, length);
    }

    public VectorKind vectorKind() {
        return kind.vectorKind();
    }

    /** The type's name as PostgreSQL prints it (e.g. {@code numeric(15,2)}, {@code character varying(25)}). */
    public String sqlName() {
        return switch (kind) {
            case BOOLEAN -> "boolean";
            case SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DECIMAL -> "numeric(" + precision + "," + scale + ")";
            case REAL -> "real";
            case DOUBLE -> "double precision";
            case DATE -> "date";
            case TIMESTAMP -> precision == UNBOUNDED ? "timestamp without time zone" : "timestamp(" + precision + ") without time zone";
            case TIMESTAMPTZ -> precision == UNBOUNDED ? "timestamp with time zone" : "timestamp(" + precision + ") with time zone";
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> "interval";
            case CHAR -> length == UNBOUNDED ? "character" : "character(" + length + ")";
            case VARCHAR -> length == UNBOUNDED ? "character varying" : "character varying(" + length + ")";
            case TEXT -> "text";
            case BIT -> length == UNBOUNDED ? "bit" : "bit(" + length + ")";
            case VARBIT -> length == UNBOUNDED ? "bit varying" : "bit varying(" + length + ")";
            case ARRAY -> isVector() ? (element.kind == TypeKind.SMALLINT ? "int2vector" : "oidvector")
                    : element.sqlName() + "[]";
            case UUID -> "uuid";
            case NULL -> "unknown";
        };
    }

    /**
     * The type's name without its modifier, as PostgreSQL's format_type_be prints it (error
     * messages, {@code pg_typeof}, regtype output): {@code numeric}, {@code character},
     * {@code character varying}, {@code integer[]}.
     */
    public String nameWithoutModifier() {
        return switch (kind) {
            case DECIMAL -> "numeric";
            case CHAR -> "character";
            case VARCHAR -> "character varying";
            case BIT -> "bit";
            case VARBIT -> "bit varying";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMPTZ -> "timestamp with time zone";
            case ARRAY -> isVector() ? sqlName() : element.nameWithoutModifier() + "[]";
            default -> sqlName();
        };
    }

    @Override
    public String toString() {
        return sqlName();
    }
}
