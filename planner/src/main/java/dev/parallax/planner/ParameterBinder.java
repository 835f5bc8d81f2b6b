package dev.parallax.planner;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueObjects;
import dev.parallax.engine.type.UuidValue;
import dev.parallax.engine.type.ValueText;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Converts the Java values an application binds to a prepared statement (Integer, Long, Short,
 * BigDecimal, Double, Float, Boolean, String, LocalDate, LocalDateTime, byte[], arrays of those, null) into the
 * engine representation of each parameter's type (Long, Double or byte[], see TypeKind). Strings
 * go through PostgreSQL's text input, as the wire protocol's text parameters do; other values are
 * converted directly with PostgreSQL's range checks (22003) and rounding.
 */
public final class ParameterBinder {
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private ParameterBinder() {
    }

    /**
     * Converts {@code values} to {@code types}. The counts must match: PostgreSQL's 08P01
     * "bind message supplies 1 parameters, but prepared statement "" requires 2" otherwise.
     */
    public static Object[] bind(List<DataType> types, Object[] values) {
        Object[] supplied = values == null ? new Object[0] : values;
        if (supplied.length != types.size()) {
            throw ParallaxException.of(SqlState.PROTOCOL_VIOLATION,
                    "bind message supplies %d parameters, but prepared statement \"\" requires %d", supplied.length, types.size());
        }
        Object[] bound = new Object[supplied.length];
        for (int index = 0; index < supplied.length; index++) {
            bound[index] = convert(types.get(index), supplied[index]);
        }
        return bound;
    }

    /** Whether {@code kind} is an integer type a parameter can be bound to from a long as is. */
    static boolean isIntegerKind(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }

    /**
     * Checks that {@code value} fits the integer type {@code type} of a parameter bound without
     * {@link #convert}: PostgreSQL's 22003 with the wording {@link #convert} uses.
     */
    static void checkIntegerRange(DataType type, long value) {
        boolean inRange = switch (type.kind()) {
            case SMALLINT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
            case INTEGER -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            default -> true;
        };
        if (!inRange) {
            convert(type, value);
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value %d out of range for %s", value, type.sqlName());
        }
    }

    /** One value in the engine representation of {@code type}, or null for SQL NULL. */
    public static Object convert(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String text) {
            return type.kind() == dev.parallax.engine.type.TypeKind.NULL
                    ? text.getBytes(StandardCharsets.UTF_8) : ValueText.parse(type, text);
        }
        return switch (type.kind()) {
            case SMALLINT -> integer(value, Short.MIN_VALUE, Short.MAX_VALUE, "smallint", type);
            case INTEGER -> integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "integer", type);
            case BIGINT -> integer(value, Long.MIN_VALUE, Long.MAX_VALUE, "bigint", type);
            case DECIMAL -> decimal(value, type);
            case REAL -> floating(value, type, true);
            case DOUBLE -> floating(value, type, false);
            case BOOLEAN -> value instanceof Boolean bool ? Long.valueOf(bool ? 1L : 0L) : viaText(type, value);
            case DATE -> switch (value) {
                case LocalDate date -> date.toEpochDay();
                case LocalDateTime timestamp -> timestamp.toLocalDate().toEpochDay();
                default -> viaText(type, value);
            };
            case TIMESTAMP -> switch (value) {
                case LocalDateTime timestamp -> ValueObjects.timestampMicros(timestamp);
                case LocalDate date -> ValueObjects.timestampMicros(date.atStartOfDay());
                default -> viaText(type, value);
            };
            // An instant; a value without an offset (text, LocalDateTime) is read at UTC.
            case TIMESTAMPTZ -> switch (value) {
                case java.time.OffsetDateTime instant -> instantMicros(instant.toInstant());
                case java.time.ZonedDateTime instant -> instantMicros(instant.toInstant());
                case java.time.Instant instant -> instantMicros(instant);
                case java.sql.Timestamp instant -> instantMicros(instant.toInstant());
                case LocalDateTime timestamp -> ValueObjects.timestampMicros(timestamp);
                case LocalDate date -> ValueObjects.timestampMicros(date.atStartOfDay());
                default -> viaText(type, value);
            };
            case INTERVAL_YEAR_MONTH -> value instanceof ValueObjects.Interval interval && interval.micros() == 0
                    ? Long.valueOf(interval.months()) : viaText(type, value);
            case INTERVAL_DAY_TIME -> value instanceof ValueObjects.Interval interval && interval.months() == 0
                    ? Long.valueOf(interval.micros()) : viaText(type, value);
            case CHAR, VARCHAR, TEXT -> value instanceof byte[] bytes
                    ? ValueText.parse(type, new String(bytes, StandardCharsets.UTF_8)) : viaText(type, value);
            case BIT, VARBIT -> value instanceof byte[] bytes ? bits(type, bytes) : viaText(type, value);
            case ARRAY -> {
                Object[] elements = arrayElements(value);
                yield elements != null ? array(type, elements) : viaText(type, value);
            }
            // A java.util.UUID (setObject) or its text (setString, the wire server's text and binary parameters).
            case UUID -> value instanceof java.util.UUID uuid ? UuidValue.of(uuid) : viaText(type, value);
            case NULL -> value instanceof byte[] bytes ? bytes.clone() : value.toString().getBytes(StandardCharsets.UTF_8);
        };
    }

    private static long instantMicros(java.time.Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    }

    /**
     * The elements of a Java array value: an {@code Object[]} ({@code Integer[]}, {@code String[]}...),
     * an array of primitives ({@code int[]}, {@code long[]}...), a {@code java.util.Collection}, or a
     * {@code java.sql.Array}; null when {@code value} is none of them.
     */
    private static Object[] arrayElements(Object value) {
        return switch (value) {
            case Object[] objects -> objects;
            case int[] ints -> java.util.Arrays.stream(ints).boxed().toArray();
            case long[] longs -> java.util.Arrays.stream(longs).boxed().toArray();
            case double[] doubles -> java.util.Arrays.stream(doubles).boxed().toArray();
            case short[] shorts -> boxed(shorts.length, index -> shorts[index]);
            case float[] floats -> boxed(floats.length, index -> floats[index]);
            case boolean[] booleans -> boxed(booleans.length, index -> booleans[index]);
            case java.util.Collection<?> collection -> collection.toArray();
            case java.sql.Array sqlArray -> {
                try {
                    yield arrayElements(sqlArray.getArray());
                } catch (java.sql.SQLException failure) {
                    throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "cannot read the array parameter: %s", failure.getMessage());
                }
            }
            default -> null;
        };
    }

    private static Object[] boxed(int length, java.util.function.IntFunction<Object> element) {
        Object[] objects = new Object[length];
        for (int index = 0; index < length; index++) {
            objects[index] = element.apply(index);
        }
        return objects;
    }

    /** An array from its elements' Java objects, each converted as a parameter of the element type. */
    private static byte[] array(DataType type, Object[] elements) {
        dev.parallax.engine.type.ArrayValue.Builder builder = new dev.parallax.engine.type.ArrayValue.Builder(type);
        for (Object element : elements) {
            if (element != null && arrayElements(element) != null) {
                // PostgreSQL would build a multidimensional array; Parallax's arrays have one dimension.
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "multidimensional arrays are not supported");
            }
            builder.add(convert(type.element(), element));
        }
        return builder.build(type.isVector() ? 0 : 1);
    }

    /** Values of another Java type go through their text form, as if the client had sent text. */
    private static Object viaText(DataType type, Object value) {
        if (value instanceof byte[]) {
            throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "cannot bind binary data to a parameter of type %s", type.sqlName());
        }
        String text = value instanceof Boolean bool ? (bool ? "true" : "false") : value.toString();
        return ValueText.parse(type, text);
    }

    private static Object integer(Object value, long minimum, long maximum, String typeName, DataType type) {
        long result;
        switch (value) {
            case Integer number -> result = number;
            case Long number -> result = number;
            case Short number -> result = number;
            case Byte number -> result = number;
            case BigInteger number -> result = checkedLong(new BigDecimal(number), typeName);
            // PostgreSQL rounds numeric to integer half away from zero, and floats half to even.
            case BigDecimal number -> result = checkedLong(number.setScale(0, RoundingMode.HALF_UP), typeName);
            case Double number -> result = roundFloat(number, typeName);
            case Float number -> result = roundFloat(number, typeName);
            default -> {
                return viaText(type, value);
            }
        }
        if (result < minimum || result > maximum) {
            throw outOfRange(typeName);
        }
        return result;
    }

    private static long checkedLong(BigDecimal integral, String typeName) {
        if (integral.compareTo(LONG_MIN) < 0 || integral.compareTo(LONG_MAX) > 0) {
            throw outOfRange(typeName);
        }
        return integral.longValueExact();
    }

    private static long roundFloat(double number, String typeName) {
        double rounded = Math.rint(number);
        // 2^63 is exactly representable; anything at or above it (or NaN) does not fit a long.
        if (!(rounded >= -0x1p63 && rounded < 0x1p63)) {
            throw outOfRange(typeName);
        }
        return (long) rounded;
    }

    private static ParallaxException outOfRange(String typeName) {
        return ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range", typeName);
    }

    private static Object decimal(Object value, DataType type) {
        BigDecimal number = switch (value) {
            case BigDecimal decimal -> decimal;
            case BigInteger integer -> new BigDecimal(integer);
            case Integer integer -> BigDecimal.valueOf(integer);
            case Long integer -> BigDecimal.valueOf(integer);
            case Short integer -> BigDecimal.valueOf(integer);
            case Byte integer -> BigDecimal.valueOf(integer);
            case Double floating -> finiteDecimal(floating);
            case Float floating -> finiteDecimal(floating.doubleValue());
            default -> null;
        };
        if (number == null) {
            return viaText(type, value);
        }
        BigDecimal scaled = number.setScale(type.scale(), RoundingMode.HALF_UP);
        BigInteger unscaled = scaled.unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow")
                    .withDetail(String.format("A field with precision %d, scale %d must round to an absolute value less than %s.",
                            type.precision(), type.scale(),
                            type.precision() == type.scale() ? "1" : "10^" + (type.precision() - type.scale())));
        }
        return unscaled.longValueExact();
    }

    private static BigDecimal finiteDecimal(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "cannot convert %s to numeric: Parallax numerics hold finite values only", Double.toString(value));
        }
        return BigDecimal.valueOf(value);
    }

    private static Object floating(Object value, DataType type, boolean single) {
        double result;
        switch (value) {
            case Double number -> result = number;
            case Float number -> result = number;
            case Integer number -> result = number;
            case Long number -> result = number;
            case Short number -> result = number;
            case BigDecimal number -> result = number.doubleValue();
            case BigInteger number -> result = number.doubleValue();
            default -> {
                return viaText(type, value);
            }
        }
        if (single && Double.isFinite(result)) {
            float narrowed = (float) result;
            if (Float.isInfinite(narrowed)) {
                throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
            }
            if (narrowed == 0.0f && result != 0.0) {
                throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
            }
            result = narrowed;
        }
        return result;
    }

    private static byte[] bits(DataType type, byte[] encoded) {
        if (encoded.length < BitString.HEADER_BYTES
                || (BitString.bitCount(encoded, 0) + 7) / 8 != encoded.length - BitString.HEADER_BYTES) {
            throw ParallaxException.of(SqlState.INVALID_BINARY_REPRESENTATION, "invalid length in external bit string");
        }
        return ValueText.fitBits(encoded.clone(), type, false);
    }
}
