package dev.parallax.jdbc;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.ValueObjects;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The conversions behind ResultSet's typed getters: one non-null value, read from a column vector
 * at a batch position and turned into what the getter returns, following pgJDBC's rules (numbers
 * convert among themselves, truncating toward zero into integers and range-checked with 22003
 * "Bad value for type int : 3000000000"; text converts to whatever it spells; anything else is a
 * 22003 bad value, as pgJDBC's text parsing would report it). Values are read from the primitive
 * arrays directly, without boxing, since getters run once per value.
 */
final class ColumnValues {
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private ColumnValues() {
    }

    /** An integer within {@code [minimum, maximum]}; {@code javaTypeName} names the getter's type in errors. */
    static long integer(ColumnVector vector, int position, long minimum, long maximum, String javaTypeName) throws SQLException {
        DataType type = vector.type();
        long value = switch (type.kind()) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT -> ((LongVector) vector).get(position);
            // Scaled long: Java's division truncates toward zero, as pgJDBC's BigDecimal.toBigInteger does.
            case DECIMAL -> ((LongVector) vector).get(position) / DecimalMath.powerOfTen(type.scale());
            case REAL, DOUBLE -> truncate(((DoubleVector) vector).get(position), vector, position, javaTypeName);
            case CHAR, VARCHAR, TEXT -> parseInteger(((BytesVector) vector).getString(position).strip(), javaTypeName);
            case DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY, UUID, NULL ->
                    throw badValue(javaTypeName, ValueText.format(vector, position));
        };
        if (value < minimum || value > maximum) {
            throw badValue(javaTypeName, ValueText.format(vector, position));
        }
        return value;
    }

    static double floating(ColumnVector vector, int position, String javaTypeName) throws SQLException {
        DataType type = vector.type();
        return switch (type.kind()) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT -> ((LongVector) vector).get(position);
            case DECIMAL -> BigDecimal.valueOf(((LongVector) vector).get(position), type.scale()).doubleValue();
            case REAL, DOUBLE -> ((DoubleVector) vector).get(position);
            case CHAR, VARCHAR, TEXT -> parseDouble(((BytesVector) vector).getString(position).strip(), javaTypeName);
            case DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY, UUID, NULL ->
                    throw badValue(javaTypeName, ValueText.format(vector, position));
        };
    }

    static BigDecimal decimal(ColumnVector vector, int position) throws SQLException {
        DataType type = vector.type();
        return switch (type.kind()) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT -> BigDecimal.valueOf(((LongVector) vector).get(position));
            case DECIMAL -> BigDecimal.valueOf(((LongVector) vector).get(position), type.scale());
            case REAL -> {
                float value = (float) ((DoubleVector) vector).get(position);
                if (!Float.isFinite(value)) {
                    throw badValue("BigDecimal", ValueText.format(vector, position));
                }
                // The float's own shortest digits, not the binary expansion of its widening to double.
                yield new BigDecimal(Float.toString(value));
            }
            case DOUBLE -> {
                double value = ((DoubleVector) vector).get(position);
                if (!Double.isFinite(value)) {
                    throw badValue("BigDecimal", ValueText.format(vector, position));
                }
                yield BigDecimal.valueOf(value);
            }
            case CHAR, VARCHAR, TEXT -> parseDecimal(((BytesVector) vector).getString(position).strip());
            case DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY, UUID, NULL ->
                    throw badValue("BigDecimal", ValueText.format(vector, position));
        };
    }

    /** pgJDBC's boolean reading: bool itself, 1/0 numbers, and PostgreSQL's boolean spellings in text. */
    static boolean bool(ColumnVector vector, int position) throws SQLException {
        DataType type = vector.type();
        return switch (type.kind()) {
            case BOOLEAN -> ((LongVector) vector).get(position) != 0;
            case SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE -> {
                BigDecimal number = decimal(vector, position);
                if (number.compareTo(BigDecimal.ONE) == 0) {
                    yield true;
                }
                if (number.signum() == 0) {
                    yield false;
                }
                throw cannotCastToBoolean(ValueText.format(vector, position));
            }
            case CHAR, VARCHAR, TEXT -> {
                String text = ((BytesVector) vector).getString(position);
                try {
                    yield ValueText.parseBoolean(text) != 0;
                } catch (ParallaxException notBoolean) {
                    throw cannotCastToBoolean(text);
                }
            }
            case DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY, UUID, NULL ->
                    throw cannotCastToBoolean(ValueText.format(vector, position));
        };
    }

    static LocalDate date(ColumnVector vector, int position) throws SQLException {
        return switch (vector.type().kind()) {
            case DATE -> LocalDate.ofEpochDay(((LongVector) vector).get(position));
            case TIMESTAMP -> ValueObjects.timestamp(((LongVector) vector).get(position)).toLocalDate();
            case TIMESTAMPTZ -> localInJvmZone(((LongVector) vector).get(position)).toLocalDate();
            case CHAR, VARCHAR, TEXT -> {
                String text = ((BytesVector) vector).getString(position);
                try {
                    yield LocalDate.ofEpochDay(ValueText.parseDate(text.strip()));
                } catch (ParallaxException notDate) {
                    throw badDateTime("date", text);
                }
            }
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY,
                 UUID, NULL -> throw badDateTime("date", ValueText.format(vector, position));
        };
    }

    static LocalDateTime timestamp(ColumnVector vector, int position) throws SQLException {
        return switch (vector.type().kind()) {
            case DATE -> LocalDate.ofEpochDay(((LongVector) vector).get(position)).atStartOfDay();
            case TIMESTAMP -> ValueObjects.timestamp(((LongVector) vector).get(position));
            case TIMESTAMPTZ -> localInJvmZone(((LongVector) vector).get(position));
            case CHAR, VARCHAR, TEXT -> {
                String text = ((BytesVector) vector).getString(position);
                try {
                    yield ValueObjects.timestamp(ValueText.parseTimestamp(text.strip()));
                } catch (ParallaxException notTimestamp) {
                    throw badDateTime("timestamp", text);
                }
            }
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY,
                 UUID, NULL -> throw badDateTime("timestamp", ValueText.format(vector, position));
        };
    }

    /**
     * A timestamp with time zone as the JVM's wall-clock time: what pgJDBC's getTimestamp and
     * getObject(LocalDateTime) give, so that {@code Timestamp.valueOf} of it is the value's instant.
     */
    static LocalDateTime localInJvmZone(long utcMicros) {
        return ValueObjects.timestampWithTimeZone(utcMicros).atZoneSameInstant(java.time.ZoneId.systemDefault()).toLocalDateTime();
    }

    /** PostgreSQL's text output of the value (what psql prints); text columns are decoded directly. */
    static String text(ColumnVector vector, int position) {
        if (vector instanceof BytesVector bytes && vector.type().kind().isText()) {
            return bytes.getString(position);
        }
        return ValueText.format(vector, position);
    }

    private static long truncate(double value, ColumnVector vector, int position, String javaTypeName) throws SQLException {
        // Every double in (-2^63 - 1, 2^63) truncates into a long; NaN and infinities do not.
        if (!(value > -0x1p63 - 1 && value < 0x1p63)) {
            throw badValue(javaTypeName, ValueText.format(vector, position));
        }
        return (long) value;
    }

    private static long parseInteger(String text, String javaTypeName) throws SQLException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notPlainInteger) {
            try {
                BigInteger integral = new BigDecimal(text).setScale(0, RoundingMode.DOWN).toBigIntegerExact();
                BigDecimal asDecimal = new BigDecimal(integral);
                if (asDecimal.compareTo(LONG_MIN) < 0 || asDecimal.compareTo(LONG_MAX) > 0) {
                    throw badValue(javaTypeName, text);
                }
                return integral.longValueExact();
            } catch (NumberFormatException | ArithmeticException notNumber) {
                throw badValue(javaTypeName, text);
            }
        }
    }

    private static double parseDouble(String text, String javaTypeName) throws SQLException {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException notNumber) {
            throw badValue(javaTypeName, text);
        }
    }

    private static BigDecimal parseDecimal(String text) throws SQLException {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException notNumber) {
            throw badValue("BigDecimal", text);
        }
    }

    /** pgJDBC's "Bad value for type int : x" (22003). */
    static SQLException badValue(String javaTypeName, String text) {
        return JdbcErrors.of("Bad value for type " + javaTypeName + " : " + text, JdbcErrors.NUMERIC_VALUE_OUT_OF_RANGE);
    }

    private static SQLException badDateTime(String typeName, String text) {
        return JdbcErrors.of("Bad value for type " + typeName + " : " + text, JdbcErrors.INVALID_DATETIME_FORMAT);
    }

    private static SQLException cannotCastToBoolean(String text) {
        return JdbcErrors.of("Cannot cast to boolean: \"" + text + "\"", JdbcErrors.INVALID_PARAMETER_TYPE);
    }
}
