package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Locale;

/**
 * PostgreSQL's unqualified interval literals ({@code interval '3 months'}, {@code '1 year 2 mons'},
 * {@code '2 days 04:05:06'}) turned into SQL-standard literals Calcite reads. The engine has two
 * interval kinds (months, microseconds), so a literal mixing months with days or time is refused.
 */
public final class PostgresIntervalText {
    private static final long MICROSECONDS_PER_SECOND = 1_000_000L;
    private static final long MICROSECONDS_PER_DAY = 86_400L * MICROSECONDS_PER_SECOND;

    private PostgresIntervalText() {
    }

    /** The Calcite literal for the body of a quoted PostgreSQL interval (without quotes). */
    public static String toSqlLiteral(String body, int position) {
        String[] words = body.trim().toLowerCase(Locale.ROOT).replace("@", " ").trim().split("\\s+");
        long months = 0;
        long microseconds = 0;
        int index = 0;
        if (words.length == 0 || words[0].isEmpty()) {
            throw invalid(body, position);
        }
        while (index < words.length) {
            String word = words[index];
            if (word.contains(":")) {
                microseconds += clockTime(word, body, position);
                index++;
                continue;
            }
            double amount;
            try {
                amount = Double.parseDouble(word);
            } catch (NumberFormatException notANumber) {
                throw invalid(body, position);
            }
            if (index + 1 >= words.length) {
                // A bare number is seconds in PostgreSQL.
                microseconds += Math.round(amount * MICROSECONDS_PER_SECOND);
                index++;
                continue;
            }
            String unit = words[index + 1];
            switch (unit) {
                case "year", "years", "y", "yr", "yrs" -> months += Math.round(amount * 12);
                case "month", "months", "mon", "mons" -> months += Math.round(amount);
                case "week", "weeks", "w" -> microseconds += Math.round(amount * 7 * MICROSECONDS_PER_DAY);
                case "day", "days", "d" -> microseconds += Math.round(amount * MICROSECONDS_PER_DAY);
                case "hour", "hours", "h", "hr", "hrs" -> microseconds += Math.round(amount * 3600 * MICROSECONDS_PER_SECOND);
                case "minute", "minutes", "min", "mins", "m" -> microseconds += Math.round(amount * 60 * MICROSECONDS_PER_SECOND);
                case "second", "seconds", "sec", "secs", "s" -> microseconds += Math.round(amount * MICROSECONDS_PER_SECOND);
                case "millisecond", "milliseconds", "ms", "msec", "msecs" -> microseconds += Math.round(amount * 1000);
                case "microsecond", "microseconds", "us", "usec", "usecs" -> microseconds += Math.round(amount);
                default -> throw invalid(body, position);
            }
            index += 2;
        }
        if (months != 0 && microseconds != 0) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "interval '" + body + "' mixes months with days or time, which Parallax intervals cannot hold",
                    null, null, position + 1, null);
        }
        if (months != 0) {
            return "INTERVAL '" + months + "' MONTH(9)";
        }
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
        return String.format(Locale.ROOT, "INTERVAL '%s%d %02d:%02d:%02d.%06d' DAY(9) TO SECOND(6)",
                sign, days, hours, minutes, seconds, fraction);
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
                micros += Math.round(Double.parseDouble(parts[2]) * MICROSECONDS_PER_SECOND);
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
