package dev.parallax.engine.type;

import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Conversion of engine values to the Java objects the embedding API and JDBC hand out:
 * BOOLEAN Boolean, SMALLINT Short, INTEGER Integer, BIGINT Long, DECIMAL BigDecimal (with the
 * type's scale), REAL Float, DOUBLE Double, DATE LocalDate, TIMESTAMP LocalDateTime, TIMESTAMPTZ OffsetDateTime at UTC, intervals
 * {@link Interval}, text String, bit strings their digit String, arrays an {@code Object[]} of
 * their elements' objects. SQL NULL is null.
 */
public final class ValueObjects {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    private ValueObjects() {
    }

    public static Object toJava(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            return null;
        }
        DataType type = vector.type();
        return switch (type.kind()) {
            case BOOLEAN -> ((LongVector) vector).get(position) != 0;
            case SMALLINT -> (short) ((LongVector) vector).get(position);
            case INTEGER -> (int) ((LongVector) vector).get(position);
            case BIGINT -> ((LongVector) vector).get(position);
            case DECIMAL -> BigDecimal.valueOf(((LongVector) vector).get(position), type.scale());
            case REAL -> (float) ((DoubleVector) vector).get(position);
            case DOUBLE -> ((DoubleVector) vector).get(position);
            case DATE -> LocalDate.ofEpochDay(((LongVector) vector).get(position));
            case TIMESTAMP -> timestamp(((LongVector) vector).get(position));
            case TIMESTAMPTZ -> timestampWithTimeZone(((LongVector) vector).get(position));
            case INTERVAL_YEAR_MONTH -> new Interval(((LongVector) vector).get(position), 0);
            case INTERVAL_DAY_TIME -> new Interval(0, ((LongVector) vector).get(position));
            case CHAR, VARCHAR, TEXT -> ((BytesVector) vector).getString(position);
            case BIT, VARBIT -> {
                BytesVector bytes = (BytesVector) vector;
                yield BitString.toString(bytes.data(), bytes.offset(position), bytes.length(position));
            }
            case ARRAY -> {
                BytesVector bytes = (BytesVector) vector;
                yield arrayElements(type, bytes.data(), bytes.offset(position));
            }
            case UUID -> {
                BytesVector bytes = (BytesVector) vector;
                yield UuidValue.toUuid(bytes.data(), bytes.offset(position));
            }
            case NULL -> null;
        };
    }

    /** The elements of the encoded array at {@code offset} as Java objects (null for NULL elements). */
    public static Object[] arrayElements(DataType arrayType, byte[] data, int offset) {
        DataType element = arrayType.element();
        Object[] elements = new Object[ArrayValue.count(data, offset)];
        for (int index = 0; index < elements.length; index++) {
            if (ArrayValue.isNull(data, offset, index)) {
                continue;
            }
            elements[index] = switch (element.vectorKind()) {
                case LONG -> longToJava(element, ArrayValue.longAt(data, offset, index));
                case DOUBLE -> element.kind() == TypeKind.REAL
                        ? (Object) (float) ArrayValue.doubleAt(data, offset, index) : ArrayValue.doubleAt(data, offset, index);
                case BYTES -> {
                    StringBuilder text = new StringBuilder();
                    ArrayValue.appendElement(text, element, data, offset, index);
                    yield text.toString();
                }
            };
        }
        return elements;
    }

    private static Object longToJava(DataType type, long value) {
        return switch (type.kind()) {
            case BOOLEAN -> value != 0;
            case SMALLINT -> (short) value;
            case INTEGER -> (int) value;
            case DECIMAL -> BigDecimal.valueOf(value, type.scale());
            case DATE -> LocalDate.ofEpochDay(value);
            case TIMESTAMP -> timestamp(value);
            case TIMESTAMPTZ -> timestampWithTimeZone(value);
            case INTERVAL_YEAR_MONTH -> new Interval(value, 0);
            case INTERVAL_DAY_TIME -> new Interval(0, value);
            default -> value;
        };
    }

    /** A timestamp with time zone as the instant at UTC (pgJDBC's getObject gives an OffsetDateTime at UTC too). */
    public static java.time.OffsetDateTime timestampWithTimeZone(long micros) {
        return java.time.OffsetDateTime.of(timestamp(micros), ZoneOffset.UTC);
    }

    public static LocalDateTime timestamp(long micros) {
        long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
        int nanos = (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000;
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }

    public static long timestampMicros(LocalDateTime value) {
        return value.toEpochSecond(ZoneOffset.UTC) * MICROS_PER_SECOND + value.getNano() / 1000;
    }

    /** An interval value: months plus microseconds (days are 24-hour microsecond spans). */
    public record Interval(long months, long micros) {
    }
}
