package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * PostgreSQL's unqualified interval literals ({@code interval '3 months'}, {@code '1 year 2 mons'},
 * {@code '2 days 04:05:06'}) turned into SQL-standard literals Calcite reads. The engine has two
 * interval kinds (months, microseconds), so a literal mixing months with days or time is refused.
 * Calcite holds a day-time literal in whole milliseconds: a value with a sub-millisecond part
 * ({@code '0.0006 seconds'}) becomes its milliseconds' literal plus {@code make_interval} of the
 * remaining microseconds, which the engine computes exactly, under a cast to the literal's type.
 */
public final class PostgresIntervalText {
    private static final long MICROSECONDS_PER_SECOND = 1_000_000L;
    private static final long MICROSECONDS_PER_DAY = 86_400L * MICROSECONDS_PER_SECOND;
    private static final long MICROSECONDS_PER_MILLISECOND = 1000;
    private static final String MONTHS_QUALIFIER = "MONTH(9)";
    private static final String DAY_TIME_QUALIFIER = "DAY(9) TO SECOND(6)";
    /** A number as PostgreSQL's interval input reads one: digits with an optional point, no exponent. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)");

    private PostgresIntervalText() {
    }

    /**
     * The Calcite expression for the body of a quoted PostgreSQL interval (without quotes): a
     * literal, or for a sub-millisecond part a literal plus the rest (see the class comment).
     */
    public static String toSqlLiteral(String body, int position) {
        return expression(body, position, false);
    }

    /** As {@link #toSqlLiteral}, always under a cast to its own interval type (which names a result column {@code interval}). */
    public static String toCastLiteral(String body, int position) {
        return expression(body, position, true);
    }

    private static String expression(String body, int position, boolean cast) {
        String[] words = body.trim().toLowerCase(Locale.ROOT).replace("@", " ").trim().split("\\s+");
        long months = 0;
        long microseconds = 0;
        int index = 0;
        if (words.length == 0 || words[0].isEmpty()) {
            throw invalid(body, position);
        }
        try {
            while (index < words.length) {
                String word = words[index];
                if (word.contains(":")) {
                    microseconds = Math.addExact(microseconds, clockTime(word, body, position));
                    index++;
                    continue;
                }
                if (!NUMBER.matcher(word).matches()) {
                    throw invalid(body, position);
                }
                double amount = Double.parseDouble(word);
                if (index + 1 >= words.length) {
                    // A bare number is seconds in PostgreSQL.
                    microseconds = Math.addExact(microseconds, scaled(amount, MICROSECONDS_PER_SECOND));
                    index++;
                    continue;
                }
                String unit = words[index + 1];
                long monthsPerUnit = switch (unit) {
                    case "year", "years", "y", "yr", "yrs" -> 12;
                    case "month", "months", "mon", "mons" -> 1;
                    default -> 0;
                };
                if (monthsPerUnit != 0) {
                    months = Math.addExact(months, Math.round(amount * monthsPerUnit));
                    index += 2;
                    continue;
                }
                long scale = switch (unit) {
                    case "week", "weeks", "w" -> 7 * MICROSECONDS_PER_DAY;
                    case "day", "days", "d" -> MICROSECONDS_PER_DAY;
                    case "hour", "hours", "h", "hr", "hrs" -> 3600 * MICROSECONDS_PER_SECOND;
                    case "minute", "minutes", "min", "mins", "m" -> 60 * MICROSECONDS_PER_SECOND;
                    case "second", "seconds", "sec", "secs", "s" -> MICROSECONDS_PER_SECOND;
                    case "millisecond", "milliseconds", "ms", "msec", "msecs" -> MICROSECONDS_PER_MILLISECOND;
                    case "microsecond", "microseconds", "us", "usec", "usecs" -> 1;
                    default -> throw invalid(body, position);
                };
                microseconds = Math.addExact(microseconds, scaled(amount, scale));
                index += 2;
            }
        } catch (ArithmeticException overflow) {
            throw new ParallaxException(SqlState.INTERVAL_FIELD_OVERFLOW,
                    "interval field value out of range: \"" + body + "\"", null, null, position + 1, null);
        }
        if (months != 0 && microseconds != 0) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "interval '" + body + "' mixes months with days or time, which Parallax intervals cannot hold",
                    null, null, position + 1, null);
        }
        if (months != 0) {
            String literal = "INTERVAL '" + months + "' " + MONTHS_QUALIFIER;
            return cast ? castTo(literal, MONTHS_QUALIFIER) : literal;
        }
        long subMillisecond = microseconds % MICROSECONDS_PER_MILLISECOND;
        String literal = dayTimeLiteral(microseconds - subMillisecond);
        if (subMillisecond != 0) {
            // Exact: make_interval's seconds are rounded to microseconds (DateTimes.makeDayTime).
            String rest = BigDecimal.valueOf(subMillisecond, 6).toPlainString();
            return castTo("(" + literal + " + make_interval(0, 0, 0, 0, 0, 0, " + rest + "))", DAY_TIME_QUALIFIER);
        }
        return cast ? castTo(literal, DAY_TIME_QUALIFIER) : literal;
    }

    private static String castTo(String expression, String qualifier) {
        return "CAST(" + expression + " AS INTERVAL " + qualifier + ")";
    }

    /** Calcite's day-time literal of {@code microseconds}, a whole number of milliseconds. */
    private static String dayTimeLiteral(long microseconds) {
        String sign = microseconds < 0 ? "-" : "";
        long magnitude = Math.abs(microseconds);
        long days = magnitude / MICROSECONDS_PER_DAY;
        long rest = magnitude % MICROSECONDS_PER_DAY;
        long hours = rest / (3600 * MICROSECONDS_PER_SECOND);
        rest %= 3600 * MICROSECONDS_PER_SECOND;
        long minutes = rest / (60 * MICROSECONDS_PER_SECOND);
        rest %= 60 * MICROSECONDS_PER_SECOND;
        long seconds = rest / MICROSECONDS_PER_SECOND;
        long fraction = rest % MICROSECONDS_PER_SECOND;
        return String.format(Locale.ROOT, "INTERVAL '%s%d %02d:%02d:%02d.%06d' " + DAY_TIME_QUALIFIER,
                sign, days, hours, minutes, seconds, fraction);
    }

    /**
     * {@code amount} units of {@code scale} microseconds, as PostgreSQL's interval input counts them:
     * the whole units exactly, the fraction's microseconds rounded half to even ({@code rint}), so
     * {@code '1.5 us'} is 1 microsecond and {@code '2.5 us'} 2. Throws ArithmeticException on overflow.
     */
    private static long scaled(double amount, long scale) {
        double whole = amount < 0 ? Math.ceil(amount) : Math.floor(amount);
        if (Math.abs(whole) >= 0x1p63) {
            throw new ArithmeticException("interval field overflow");
        }
        return Math.addExact(Math.multiplyExact((long) whole, scale), (long) Math.rint((amount - whole) * scale));
    }

    private static long clockTime(String word, String body, int position) {
        boolean negative = word.startsWith("-");
        String[] parts = (negative ? word.substring(1) : word).split(":");
        if (parts.length < 2 || parts.length > 3) {
            throw invalid(body, position);
        }
        try {
            long micros = Long.parseLong(parts[0]) * 3600 * MICROSECONDS_PER_SECOND
                    + Long.parseLong(parts[1]) * 60 * MICROSECONDS_PER_SECOND;
            if (parts.length == 3) {
                micros += scaled(Double.parseDouble(parts[2]), MICROSECONDS_PER_SECOND);
            }
            return negative ? -micros : micros;
        } catch (NumberFormatException notANumber) {
            throw invalid(body, position);
        }
    }

    private static ParallaxException invalid(String body, int position) {
        return new ParallaxException(SqlState.INVALID_DATETIME_FORMAT,
                "invalid input syntax for type interval: \"" + body + "\"", null, null, position + 1, null);
    }
}
