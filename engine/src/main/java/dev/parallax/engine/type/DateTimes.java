package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

/**
 * Calendar arithmetic on the engine's DATE (days since 1970-01-01) and TIMESTAMP (microseconds since
 * 1970-01-01 00:00:00) values, in the proleptic Gregorian calendar PostgreSQL uses. Everything is
 * static arithmetic on longs so kernels can call it per row without allocating.
 */
public final class DateTimes {
    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    private DateTimes() {
    }

    /** Days since 1970-01-01 of a civil date (month 1..12); days from civil after H. Hinnant. */
    public static long daysFromCivil(long year, int month, int day) {
        long adjustedYear = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(adjustedYear, 400);
        long yearOfEra = adjustedYear - era * 400;
        int shiftedMonth = month > 2 ? month - 3 : month + 9;
        long dayOfYear = (153L * shiftedMonth + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146097 + dayOfEra - 719468;
    }

    /** The civil date of {@code days} packed as {@code year << 9 | month << 5 | day}; see {@link #year}. */
    public static long civilFromDays(long days) {
        long shifted = days + 719468;
        long era = Math.floorDiv(shifted, 146097);
        long dayOfEra = shifted - era * 146097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1;
        long month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return (year << 9) | (month << 5) | day;
    }

    public static long year(long civil) {
        return civil >> 9;
    }

    public static int month(long civil) {
        return (int) ((civil >> 5) & 0xF);
    }

    public static int day(long civil) {
        return (int) (civil & 0x1F);
    }

    public static boolean isLeapYear(long year) {
        return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    }

    public static int daysInMonth(long year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Adds months to a date, clamping the day to the end of the resulting month (Jan 31 + 1 month = Feb 28/29). */
    public static long addMonths(long days, long months) {
        long civil = civilFromDays(days);
        long monthIndex = year(civil) * 12 + (month(civil) - 1) + months;
        long year = Math.floorDiv(monthIndex, 12);
        int month = (int) Math.floorMod(monthIndex, 12) + 1;
        int day = Math.min(day(civil), daysInMonth(year, month));
        return daysFromCivil(year, month, day);
    }

    /** Adds months to a timestamp, keeping the time of day; the day clamps like {@link #addMonths}. */
    public static long addMonthsToTimestamp(long micros, long months) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long timeOfDay = micros - days * MICROS_PER_DAY;
        return Math.addExact(Math.multiplyExact(addMonths(days, months), MICROS_PER_DAY), timeOfDay);
    }

    /** Day of week, 0 = Sunday .. 6 = Saturday (EXTRACT(dow)). */
    public static int dayOfWeek(long days) {
        return (int) Math.floorMod(days + 4, 7);
    }

    /** Day of year, 1-based (EXTRACT(doy)). */
    public static int dayOfYear(long days) {
        long year = year(civilFromDays(days));
        return (int) (days - daysFromCivil(year, 1, 1)) + 1;
    }

    /** ISO 8601 week number (EXTRACT(week)): weeks start on Monday, week 1 holds the year's first Thursday. */
    public static int isoWeek(long days) {
        int isoDayOfWeek = Math.floorMod(dayOfWeek(days) + 6, 7); // Monday 0 .. Sunday 6
        long thursday = days - isoDayOfWeek + 3;
        long thursdayYear = year(civilFromDays(thursday));
        return (int) ((thursday - daysFromCivil(thursdayYear, 1, 1)) / 7) + 1;
    }

    /** ISO year of the ISO week of {@code days}. */
    public static long isoYear(long days) {
        int isoDayOfWeek = Math.floorMod(dayOfWeek(days) + 6, 7);
        return year(civilFromDays(days - isoDayOfWeek + 3));
    }

    /** Validates a civil date and returns its days, or throws 22008 quoting {@code text}. */
    public static long checkedDays(long year, int month, int day, String text) {
        if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%s\"", text);
        }
        return daysFromCivil(year, month, day);
    }

    /** Appends a date as PostgreSQL prints it: {@code YYYY-MM-DD}, with " BC" for years before 1. */
    public static void appendDate(StringBuilder out, long days) {
        long civil = civilFromDays(days);
        appendCivilDate(out, year(civil), month(civil), day(civil));
        if (year(civil) <= 0) {
            out.append(" BC");
        }
    }

    private static void appendCivilDate(StringBuilder out, long year, int month, int day) {
        long printedYear = year <= 0 ? 1 - year : year;
        appendPadded(out, printedYear, 4);
        out.append('-');
        appendPadded(out, month, 2);
        out.append('-');
        appendPadded(out, day, 2);
    }

    /** Appends a timestamp as PostgreSQL prints it: {@code YYYY-MM-DD HH:MM:SS[.ffffff]}, fraction without trailing zeros. */
    public static void appendTimestamp(StringBuilder out, long micros) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long timeOfDay = micros - days * MICROS_PER_DAY;
        long civil = civilFromDays(days);
        appendCivilDate(out, year(civil), month(civil), day(civil));
        out.append(' ');
        appendTime(out, timeOfDay);
        if (year(civil) <= 0) {
            out.append(" BC");
        }
    }

    /** Appends {@code HH:MM:SS[.ffffff]} for a non-negative time span; hours may exceed 24. */
    public static void appendTime(StringBuilder out, long micros) {
        long hours = micros / MICROS_PER_HOUR;
        long minutes = micros / MICROS_PER_MINUTE % 60;
        long seconds = micros / MICROS_PER_SECOND % 60;
        long fraction = micros % MICROS_PER_SECOND;
        appendPadded(out, hours, 2);
        out.append(':');
        appendPadded(out, minutes, 2);
        out.append(':');
        appendPadded(out, seconds, 2);
        appendFraction(out, fraction);
    }

    /** Appends {@code .ffffff} without trailing zeros, nothing for 0. */
    public static void appendFraction(StringBuilder out, long micros) {
        if (micros == 0) {
            return;
        }
        out.append('.');
        int digits = 6;
        while (micros % 10 == 0) {
            micros /= 10;
            digits--;
        }
        appendPadded(out, micros, digits);
    }

    static void appendPadded(StringBuilder out, long value, int width) {
        if (value < 0) {
            String digits = Long.toString(value);
            for (int pad = digits.length(); pad < width; pad++) {
                out.append('0');
            }
            out.append(digits);
            return;
        }
        // Counting digits instead of formatting to a String first: a timestamp has six padded
        // fields, and the wire server writes one per row.
        int digits = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        for (int pad = digits; pad < width; pad++) {
            out.append('0');
        }
        out.append(value);
    }
}
