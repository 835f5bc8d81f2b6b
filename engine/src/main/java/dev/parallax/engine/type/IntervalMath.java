package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

/**
 * Text form of the engine's two interval kinds: INTERVAL_YEAR_MONTH (a count of months) and
 * INTERVAL_DAY_TIME (microseconds, days being 24-hour spans), in PostgreSQL's default
 * ("postgres") interval style.
 */
public final class IntervalMath {
    private IntervalMath() {
    }

    /** Appends a months count: {@code 1 year 2 mons}, {@code -1 years}, {@code 00:00:00} for zero. */
    public static void appendYearMonth(StringBuilder out, long months) {
        append(out, months / 12, months % 12, 0, 0);
    }

    /** Appends a microseconds span: {@code 3 days}, {@code 1 day 04:05:06}, {@code -00:00:01}. */
    public static void appendDayTime(StringBuilder out, long micros) {
        append(out, 0, 0, micros / DateTimes.MICROS_PER_DAY, micros % DateTimes.MICROS_PER_DAY);
    }

    private static void append(StringBuilder out, long years, long months, long days, long time) {
        int start = out.length();
        boolean[] before = new boolean[1];
        appendPart(out, start, years, "year", before);
        appendPart(out, start, months, "mon", before);
        appendPart(out, start, days, "day", before);
        boolean empty = out.length() == start;
        if (empty || time != 0) {
            if (!empty) {
                out.append(' ');
            }
            if (time < 0) {
                out.append('-');
            } else if (before[0]) {
                out.append('+');
            }
            DateTimes.appendTime(out, Math.abs(time));
        }
    }

    private static void appendPart(StringBuilder out, int start, long value, String unit, boolean[] before) {
        if (value == 0) {
            return;
        }
        if (out.length() > start) {
            out.append(' ');
        }
        if (before[0] && value > 0) {
            out.append('+');
        }
        out.append(value).append(' ').append(unit);
        if (value != 1) {
            out.append('s');
        }
        before[0] = value < 0;
    }

    /**
     * Parses PostgreSQL interval text ({@code 1 year 2 mons}, {@code 3 days 04:05:06}, {@code -00:00:01},
     * {@code 2 hours 30 minutes}, with optional {@code ago}) into months and microseconds.
     * Returns {@code {months, micros}}.
     */
    public static long[] parse(String text) {
        String[] tokens = text.trim().toLowerCase(java.util.Locale.ROOT).split("\\s+");
        long months = 0;
        long micros = 0;
        boolean any = false;
        try {
            for (int index = 0; index < tokens.length; index++) {
                String token = tokens[index];
                if (token.isEmpty()) {
                    continue;
                }
                if (token.indexOf(':') >= 0) {
                    micros = Math.addExact(micros, parseTime(token, text));
                    any = true;
                    continue;
                }
                if (token.equals("ago")) {
                    months = -months;
                    micros = -micros;
                    continue;
                }
                if (token.startsWith("@")) {
                    token = token.substring(1);
                    if (token.isEmpty()) {
                        continue;
                    }
                }
                int unitStart = 0;
                while (unitStart < token.length() && (Character.isDigit(token.charAt(unitStart))
                        || token.charAt(unitStart) == '-' || token.charAt(unitStart) == '+' || token.charAt(unitStart) == '.')) {
                    unitStart++;
                }
                String number = token.substring(0, unitStart);
                String unit = token.substring(unitStart);
                if (unit.isEmpty()) {
                    if (index + 1 >= tokens.length) {
                        // A bare number means seconds, as in PostgreSQL.
                        unit = "second";
                    } else {
                        unit = tokens[++index];
                    }
                }
                double amount = Double.parseDouble(number);
                switch (unitOf(unit, text)) {
                    case 'y' -> months = Math.addExact(months, Math.round(amount * 12));
                    case 'M' -> months = Math.addExact(months, Math.round(amount));
                    case 'w' -> micros = Math.addExact(micros, Math.round(amount * 7 * DateTimes.MICROS_PER_DAY));
                    case 'd' -> micros = Math.addExact(micros, Math.round(amount * DateTimes.MICROS_PER_DAY));
                    case 'h' -> micros = Math.addExact(micros, Math.round(amount * DateTimes.MICROS_PER_HOUR));
                    case 'm' -> micros = Math.addExact(micros, Math.round(amount * DateTimes.MICROS_PER_MINUTE));
                    case 's' -> micros = Math.addExact(micros, Math.round(amount * DateTimes.MICROS_PER_SECOND));
                    default -> throw invalid(text);
                }
                any = true;
            }
        } catch (NumberFormatException malformed) {
            throw invalid(text);
        } catch (ArithmeticException overflow) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "interval field value out of range: \"%s\"", text);
        }
        if (!any) {
            throw invalid(text);
        }
        return new long[] {months, micros};
    }

    private static char unitOf(String unit, String text) {
        return switch (unit) {
            case "y", "year", "years", "yr", "yrs" -> 'y';
            case "mon", "mons", "month", "months" -> 'M';
            case "w", "week", "weeks" -> 'w';
            case "d", "day", "days" -> 'd';
            case "h", "hour", "hours", "hr", "hrs" -> 'h';
            case "m", "min", "mins", "minute", "minutes" -> 'm';
            case "s", "sec", "secs", "second", "seconds" -> 's';
            default -> throw invalid(text);
        };
    }

    private static long parseTime(String token, String text) {
        boolean negative = token.startsWith("-");
        String body = negative || token.startsWith("+") ? token.substring(1) : token;
        String[] parts = body.split(":");
        if (parts.length < 2 || parts.length > 3) {
            throw invalid(text);
        }
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        long micros = parts.length == 3 ? Math.round(Double.parseDouble(parts[2]) * DateTimes.MICROS_PER_SECOND) : 0;
        if (minutes > 59 || micros >= 60 * DateTimes.MICROS_PER_SECOND) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "interval field value out of range: \"%s\"", text);
        }
        long total = hours * DateTimes.MICROS_PER_HOUR + minutes * DateTimes.MICROS_PER_MINUTE + micros;
        return negative ? -total : total;
    }

    private static ParallaxException invalid(String text) {
        return ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"%s\"", text);
    }
}
