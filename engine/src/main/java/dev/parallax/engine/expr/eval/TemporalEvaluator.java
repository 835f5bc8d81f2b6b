package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Date and time arithmetic (DATE/TIMESTAMP ± INTERVAL or days, DATE - DATE), EXTRACT and DATE_TRUNC.
 * Values are computed in microseconds (or days) and converted once to the declared result type:
 * DATE + INTERVAL is a TIMESTAMP in PostgreSQL, but a planner that declares DATE gets a DATE.
 * A timestamp with time zone adds months, and EXTRACT and DATE_TRUNC read its fields, in the local
 * time of the session's zone; microseconds (and days, which an interval holds as 24 hours) add to
 * the instant, so {@code + interval '1 day'} across a DST change moves the local time by an hour
 * where PostgreSQL, whose intervals keep days apart, keeps it.
 */
final class TemporalEvaluator extends Evaluator {
    /** What each row computes; chosen at compile time from the function and the operand types. */
    enum Operation {
        ADD_DAYS, ADD_MONTHS, ADD_MICROS, SUBTRACT_DATES, SUBTRACT_TIMESTAMPS, EXTRACT, TRUNCATE
    }

    private final Operation operation;
    private final Evaluator temporal;
    private final Evaluator amount;
    private final TypeKind temporalKind;
    private final String field;
    private final int sign;
    private final TypeKind resultKind;
    private final int resultScale;
    private final ColumnVector output;
    /** The session's TimeZone, for a timestamp with time zone's local fields. */
    private final SessionTimeZone zone;
    private int[] scratch = new int[0];

    TemporalEvaluator(Operation operation, Evaluator temporal, Evaluator amount, int sign, String field, DataType resultType,
                      SessionTimeZone zone) {
        super(resultType);
        this.zone = zone;
        this.operation = operation;
        this.temporal = temporal;
        this.amount = amount;
        this.temporalKind = temporal.type().kind();
        this.sign = sign;
        this.field = field;
        this.resultKind = resultType.kind();
        this.resultScale = ComparisonEvaluator.scaleOf(resultType);
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
        if (operation == Operation.EXTRACT) {
            checkExtractField(field, temporalKind);
        } else if (operation == Operation.TRUNCATE) {
            truncate(0, field);
        }
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector values = (LongVector) temporal.evaluate(input, selection, count);
        LongVector amounts = amount == null ? null : (LongVector) amount.evaluate(input, selection, count);
        ColumnVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] amountNulls = amounts == null ? null : nullsOf(amounts);
        if (valueNulls != null || amountNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, amountNulls, result, scratch);
            selection = scratch;
        }
        long[] in = values.values();
        long[] other = amounts == null ? null : amounts.values();
        try {
            if (result instanceof DoubleVector doubles) {
                double[] out = doubles.values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    // EXTRACT computes micro-units: value * 10^6.
                    out[position] = compute(in[position], other == null ? 0 : other[position]) / 1_000_000.0;
                }
            } else {
                long[] out = ((LongVector) result).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = convert(compute(in[position], other == null ? 0 : other[position]));
                }
            }
        } catch (ArithmeticException overflow) {
            throw new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, temporalKind == TypeKind.DATE ? "date out of range" : "timestamp out of range");
        }
        return result;
    }

    /** The row's value in microseconds (timestamps, intervals, EXTRACT in millionths) or days (dates). */
    private long compute(long value, long other) {
        return switch (operation) {
            case ADD_DAYS -> temporalKind == TypeKind.DATE ? Math.addExact(value, sign * other)
                    : Math.addExact(value, Math.multiplyExact(sign * other, DateTimes.MICROS_PER_DAY));
            case ADD_MONTHS -> switch (temporalKind) {
                case DATE -> DateTimes.addMonths(value, sign * other) * DateTimes.MICROS_PER_DAY;
                case TIMESTAMPTZ -> zone.addMonths(value, sign * other);
                default -> DateTimes.addMonthsToTimestamp(value, sign * other);
            };
            case ADD_MICROS -> Math.addExact(temporalKind == TypeKind.DATE ? value * DateTimes.MICROS_PER_DAY : value, sign * other);
            case SUBTRACT_DATES -> value - other;
            case SUBTRACT_TIMESTAMPS -> Math.subtractExact(value, other);
            case EXTRACT -> extract(value);
            case TRUNCATE -> switch (temporalKind) {
                case DATE -> truncate(value * DateTimes.MICROS_PER_DAY, field);
                case TIMESTAMPTZ -> truncateInZone(value);
                default -> truncate(value, field);
            };
        };
    }

    /** Converts the computed value to the declared result kind. */
    private long convert(long computed) {
        if (operation == Operation.EXTRACT) {
            return switch (resultKind) {
                case DECIMAL -> DecimalMath.rescale(computed, 6, resultScale);
                default -> Math.floorDiv(computed, 1_000_000L);
            };
        }
        boolean inMicros = operation == Operation.ADD_MONTHS || operation == Operation.ADD_MICROS || operation == Operation.TRUNCATE
                || (operation == Operation.ADD_DAYS && temporalKind != TypeKind.DATE) || operation == Operation.SUBTRACT_TIMESTAMPS;
        if (inMicros && resultKind == TypeKind.DATE) {
            return Math.floorDiv(computed, DateTimes.MICROS_PER_DAY);
        }
        if (!inMicros && resultKind == TypeKind.TIMESTAMP) {
            return Math.multiplyExact(computed, DateTimes.MICROS_PER_DAY);
        }
        return computed;
    }

    /**
     * DATE_TRUNC of a timestamp with time zone: its local time truncated; a day or longer unit starts at the
     * instant that local time names (PostgreSQL's DetermineTimeZoneOffset), a shorter one keeps the value's offset.
     */
    private long truncateInZone(long utcMicros) {
        int offsetSeconds = zone.offsetSeconds(utcMicros);
        long local = utcMicros + offsetSeconds * DateTimes.MICROS_PER_SECOND;
        long truncated = truncate(local, field);
        return switch (field) {
            case "hour", "minute", "second", "milliseconds", "millisecond", "microseconds", "microsecond" ->
                    truncated - offsetSeconds * DateTimes.MICROS_PER_SECOND;
            default -> zone.toUtc(truncated);
        };
    }

    private static void checkExtractField(String field, TypeKind kind) {
        boolean known = switch (field) {
            case "year", "quarter", "month", "day", "dow", "isodow", "doy", "week", "epoch", "hour", "minute", "second",
                 "millisecond", "microsecond", "decade", "century", "millennium", "isoyear" -> true;
            case "timezone", "timezone_hour", "timezone_minute" -> kind == TypeKind.TIMESTAMPTZ;
            default -> false;
        };
        if (!known) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "unit \"%s\" not recognized for type %s", field,
                    typeName(kind));
        }
        boolean timeField = field.equals("hour") || field.equals("minute") || field.equals("second")
                || field.equals("millisecond") || field.equals("microsecond");
        boolean intervalUnsupported = field.equals("dow") || field.equals("isodow") || field.equals("doy") || field.equals("week")
                || field.equals("isoyear");
        if ((kind == TypeKind.DATE && timeField) || (isInterval(kind) && intervalUnsupported)) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "unit \"%s\" not supported for type %s", field, typeName(kind));
        }
    }

    private static boolean isInterval(TypeKind kind) {
        return kind == TypeKind.INTERVAL_YEAR_MONTH || kind == TypeKind.INTERVAL_DAY_TIME;
    }

    private static String typeName(TypeKind kind) {
        return switch (kind) {
            case DATE -> "date";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMPTZ -> "timestamp with time zone";
            default -> "interval";
        };
    }

    /** EXTRACT in millionths of the unit, so fractional seconds and epochs stay exact. */
    private long extract(long value) {
        final long million = 1_000_000L;
        if (temporalKind == TypeKind.INTERVAL_YEAR_MONTH) {
            return switch (field) {
                case "year" -> value / 12 * million;
                case "month" -> value % 12 * million;
                case "quarter" -> (value % 12 / 3 + 1) * million;
                case "decade" -> value / 120 * million;
                case "century" -> value / 1200 * million;
                case "millennium" -> value / 12000 * million;
                // PostgreSQL counts a year as 365.25 days and a month as 30 days in epoch.
                case "epoch" -> (value / 12 * 36525L * 864 + value % 12 * 30L * 86400) * million;
                default -> 0;
            };
        }
        if (temporalKind == TypeKind.INTERVAL_DAY_TIME) {
            return switch (field) {
                case "day" -> value / DateTimes.MICROS_PER_DAY * million;
                case "hour" -> value % DateTimes.MICROS_PER_DAY / DateTimes.MICROS_PER_HOUR * million;
                case "minute" -> value % DateTimes.MICROS_PER_HOUR / DateTimes.MICROS_PER_MINUTE * million;
                case "second" -> value % DateTimes.MICROS_PER_MINUTE;
                case "millisecond" -> value % DateTimes.MICROS_PER_MINUTE * 1000;
                case "microsecond" -> value % DateTimes.MICROS_PER_MINUTE * million;
                case "epoch" -> value;
                default -> 0;
            };
        }
        if (temporalKind == TypeKind.TIMESTAMPTZ) {
            int offsetSeconds = zone.offsetSeconds(value);
            switch (field) {
                case "epoch" -> {
                    return value;
                }
                case "timezone" -> {
                    return offsetSeconds * million;
                }
                case "timezone_hour" -> {
                    return offsetSeconds / 3600 * million;
                }
                case "timezone_minute" -> {
                    return offsetSeconds / 60 % 60 * million;
                }
                default -> value += offsetSeconds * DateTimes.MICROS_PER_SECOND;
            }
        }
        long micros = temporalKind == TypeKind.DATE ? value * DateTimes.MICROS_PER_DAY : value;
        long days = Math.floorDiv(micros, DateTimes.MICROS_PER_DAY);
        long timeOfDay = micros - days * DateTimes.MICROS_PER_DAY;
        long civil = DateTimes.civilFromDays(days);
        long year = DateTimes.year(civil);
        return switch (field) {
            case "year" -> (year <= 0 ? year - 1 : year) * million;
            case "quarter" -> ((DateTimes.month(civil) - 1) / 3 + 1) * million;
            case "month" -> DateTimes.month(civil) * million;
            case "day" -> DateTimes.day(civil) * million;
            case "dow" -> DateTimes.dayOfWeek(days) * million;
            case "isodow" -> (DateTimes.dayOfWeek(days) == 0 ? 7 : DateTimes.dayOfWeek(days)) * million;
            case "doy" -> DateTimes.dayOfYear(days) * million;
            case "week" -> DateTimes.isoWeek(days) * million;
            case "isoyear" -> DateTimes.isoYear(days) * million;
            case "decade" -> Math.floorDiv(year, 10) * million;
            case "century" -> (year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100)) * million;
            case "millennium" -> (year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000)) * million;
            case "epoch" -> micros;
            case "hour" -> timeOfDay / DateTimes.MICROS_PER_HOUR * million;
            case "minute" -> timeOfDay % DateTimes.MICROS_PER_HOUR / DateTimes.MICROS_PER_MINUTE * million;
            case "second" -> timeOfDay % DateTimes.MICROS_PER_MINUTE;
            case "millisecond" -> timeOfDay % DateTimes.MICROS_PER_MINUTE * 1000;
            case "microsecond" -> timeOfDay % DateTimes.MICROS_PER_MINUTE * million;
            default -> throw new IllegalStateException(field);
        };
    }

    /** DATE_TRUNC of a timestamp in microseconds. */
    private static long truncate(long micros, String field) {
        long days = Math.floorDiv(micros, DateTimes.MICROS_PER_DAY);
        long civil = DateTimes.civilFromDays(days);
        long year = DateTimes.year(civil);
        int month = DateTimes.month(civil);
        return switch (field) {
            case "millennium" -> DateTimes.daysFromCivil(Math.floorDiv(year - 1, 1000) * 1000 + 1, 1, 1) * DateTimes.MICROS_PER_DAY;
            case "century" -> DateTimes.daysFromCivil(Math.floorDiv(year - 1, 100) * 100 + 1, 1, 1) * DateTimes.MICROS_PER_DAY;
            case "decade" -> DateTimes.daysFromCivil(Math.floorDiv(year, 10) * 10, 1, 1) * DateTimes.MICROS_PER_DAY;
            case "year" -> DateTimes.daysFromCivil(year, 1, 1) * DateTimes.MICROS_PER_DAY;
            case "quarter" -> DateTimes.daysFromCivil(year, (month - 1) / 3 * 3 + 1, 1) * DateTimes.MICROS_PER_DAY;
            case "month" -> DateTimes.daysFromCivil(year, month, 1) * DateTimes.MICROS_PER_DAY;
            case "week" -> (days - Math.floorMod(DateTimes.dayOfWeek(days) + 6, 7)) * DateTimes.MICROS_PER_DAY;
            case "day" -> days * DateTimes.MICROS_PER_DAY;
            case "hour" -> Math.floorDiv(micros, DateTimes.MICROS_PER_HOUR) * DateTimes.MICROS_PER_HOUR;
            case "minute" -> Math.floorDiv(micros, DateTimes.MICROS_PER_MINUTE) * DateTimes.MICROS_PER_MINUTE;
            case "second" -> Math.floorDiv(micros, DateTimes.MICROS_PER_SECOND) * DateTimes.MICROS_PER_SECOND;
            case "milliseconds", "millisecond" -> Math.floorDiv(micros, 1000) * 1000;
            case "microseconds", "microsecond" -> micros;
            default -> throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE,
                    "unit \"%s\" not recognized for type timestamp without time zone", field);
        };
    }
}
