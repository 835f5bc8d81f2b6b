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

    /** PostgreSQL's timestamps count microseconds from 2000-01-01 00:00:00: its rounding is symmetric about that instant. */
    private static final long POSTGRES_EPOCH_MICROS = daysFromCivil(2000, 1, 1) * MICROS_PER_DAY;

    /**
     * {@code micros} (a timestamp, or a timestamp with time zone's UTC instant) rounded to the
     * fractional digits of {@code type}'s precision as PostgreSQL's AdjustTimestampForTypmod does:
     * half away from zero, zero being PostgreSQL's epoch 2000-01-01 (so 1960-01-01 00:00:00.5 becomes
     * 00:00:00 and 2020-01-01 00:00:00.5 becomes 00:00:01); unchanged for a type without one or with 6.
     * 22008 "timestamp out of range" when rounding up passes the last timestamp Parallax holds.
     */
    public static long roundToPrecision(long micros, DataType type) {
        if (!type.roundsTimestamps()) {
            return micros;
        }
        return roundToPrecision(micros, type.precision());
    }

    /** {@link #roundToPrecision(long, DataType)} to {@code precision} (0 to 6) fractional digits. */
    public static long roundToPrecision(long micros, int precision) {
        long unit = DecimalMath.powerOfTen(DataType.MAX_TIMESTAMP_PRECISION - precision);
        long half = unit / 2;
        long sinceEpoch = micros - POSTGRES_EPOCH_MICROS;
        long rounded = sinceEpoch >= 0 ? (sinceEpoch + half) / unit * unit : -((-sinceEpoch + half) / unit * unit);
        try {
            return Math.addExact(rounded, POSTGRES_EPOCH_MICROS);
        } catch (ArithmeticException overflow) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
        }
    }

    /** The first day PostgreSQL's dates and timestamps hold: 4714-11-24 BC (Julian day 0). */
    public static final long FIRST_DAY = daysFromCivil(-4713, 11, 24);
    /** The day after the last date PostgreSQL holds (5874897-12-31). */
    public static final long DATE_END_DAY = daysFromCivil(5874898, 1, 1);
    /**
     * The end of the timestamps Parallax holds: microseconds since 1970 in a long end at
     * 294247-01-10 04:00:54.775807, some 30 years before PostgreSQL's last (294276-12-31), whose
     * microseconds count from 2000.
     */
    public static final long TIMESTAMP_END_MICROS = Long.MAX_VALUE;

    /**
     * PostgreSQL's {@code make_date(year, month, day)}: a negative year counts BC (-44 is 44 BC), year
     * 0 and days not in the calendar are 22008 "date field value out of range", dates PostgreSQL
     * cannot hold 22008 "date out of range"; both quote the fields as PostgreSQL does (the year as
     * stored, 44 BC being -43).
     */
    public static long makeDate(long year, long month, long day) {
        long stored = year < 0 ? year + 1 : year;
        if (year == 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(stored, (int) month)) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: %s", fields(stored, month, day));
        }
        long days = daysFromCivil(stored, (int) month, (int) day);
        if (days < FIRST_DAY || days >= DATE_END_DAY) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range: %s", fields(stored, month, day));
        }
        return days;
    }

    /**
     * PostgreSQL's {@code make_timestamp(year, month, day, hour, minute, seconds)}: the date as
     * {@link #makeDate} takes it (its messages quote the year as written), then a time of day up to
     * 24:00:00 (seconds rounded to the microsecond, half to even as rint does), else 22008 "time field
     * value out of range"; a timestamp PostgreSQL cannot hold is 22008 "timestamp out of range".
     */
    public static long makeTimestamp(long year, long month, long day, long hour, long minute, double seconds) {
        long stored = year < 0 ? year + 1 : year;
        if (year == 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(stored, (int) month)) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: %s", fields(year, month, day));
        }
        long days = daysFromCivil(stored, (int) month, (int) day);
        double secondMicros = Double.isNaN(seconds) ? Double.NaN : Math.rint(seconds * MICROS_PER_SECOND);
        if (hour < 0 || hour > 24 || minute < 0 || minute >= 60 || Double.isNaN(secondMicros) || secondMicros < 0
                || secondMicros > 60 * MICROS_PER_SECOND
                || (hour * 60 + minute) * MICROS_PER_MINUTE + (long) secondMicros > MICROS_PER_DAY) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "time field value out of range: %d:%02d:%s",
                    hour, minute, twoWide(formatG(seconds)));
        }
        long micros;
        try {
            micros = Math.addExact(Math.multiplyExact(days, MICROS_PER_DAY), (hour * 60 + minute) * MICROS_PER_MINUTE + (long) secondMicros);
        } catch (ArithmeticException beyondLong) {
            micros = TIMESTAMP_END_MICROS;
        }
        if (micros < FIRST_DAY * MICROS_PER_DAY || micros >= TIMESTAMP_END_MICROS) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: %s %d:%02d:%s",
                    fields(year, month, day), hour, minute, twoWide(formatG(seconds)));
        }
        return micros;
    }

    /** make_interval's months: years * 12 + months, 22008 "interval out of range" past a 32-bit count as in PostgreSQL. */
    public static long makeMonths(long years, long months) {
        long total = years * 12 + months;
        if (total < Integer.MIN_VALUE || total > Integer.MAX_VALUE) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
        }
        return total;
    }

    /**
     * make_interval's days and time in microseconds: weeks and days (PostgreSQL's 32-bit day count),
     * hours, minutes and seconds rounded half to even to the microsecond; 22008 "interval out of
     * range" on overflow or seconds that are not finite.
     */
    public static long makeDayTime(long weeks, long days, long hours, long minutes, double seconds) {
        long totalDays = weeks * 7 + days;
        if (totalDays < Integer.MIN_VALUE || totalDays > Integer.MAX_VALUE || !Double.isFinite(seconds)) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
        }
        try {
            double secondMicros = Math.rint(seconds * MICROS_PER_SECOND);
            if (Math.abs(secondMicros) >= 0x1p63) {
                throw new ArithmeticException();
            }
            long time = Math.addExact(Math.addExact(Math.multiplyExact(hours, MICROS_PER_HOUR), Math.multiplyExact(minutes, MICROS_PER_MINUTE)),
                    (long) secondMicros);
            return Math.addExact(Math.multiplyExact(totalDays, MICROS_PER_DAY), time);
        } catch (ArithmeticException overflow) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range");
        }
    }

    /** {@code year-MM-DD} as PostgreSQL's messages print date fields ({@code %d-%02d-%02d}). */
    private static String fields(long year, long month, long day) {
        return String.format(java.util.Locale.ROOT, "%d-%02d-%02d", year, month, day);
    }

    /** A number as C's {@code %g} prints it in PostgreSQL's messages: 6 significant digits, no trailing zeros. */
    public static String formatG(double seconds) {
        if (Double.isNaN(seconds)) {
            return "NaN";
        }
        if (Double.isInfinite(seconds)) {
            return seconds > 0 ? "Infinity" : "-Infinity";
        }
        if (seconds == 0) {
            return "0";
        }
        java.math.BigDecimal rounded = new java.math.BigDecimal(seconds).round(new java.math.MathContext(6));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String text;
        if (exponent < -4 || exponent >= 6) {
            java.math.BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
            text = mantissa.toPlainString() + (exponent < 0 ? "e-" : "e+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        } else {
            text = rounded.stripTrailingZeros().toPlainString();
        }
        return text;
    }

    /** C's {@code %02g} from {@code %g}'s text: zero-padded to two characters. */
    private static String twoWide(String text) {
        return text.length() < 2 ? "0" + text : text;
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
        appendDateTime(out, micros, false, 0);
    }

    /**
     * Appends a timestamp with time zone as PostgreSQL prints it in {@code zone}: the local time, then
     * the offset in effect ({@code 2024-03-31 03:30:00+02}, {@code +05:30}), before a " BC".
     */
    public static void appendTimestampWithTimeZone(StringBuilder out, long utcMicros, SessionTimeZone zone) {
        int offsetSeconds = zone.offsetSeconds(utcMicros);
        appendDateTime(out, utcMicros + offsetSeconds * MICROS_PER_SECOND, true, offsetSeconds);
    }

    /** The local time {@code micros}, then the offset when {@code withOffset}, then " BC" for years before 1. */
    private static void appendDateTime(StringBuilder out, long micros, boolean withOffset, int offsetSeconds) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long timeOfDay = micros - days * MICROS_PER_DAY;
        long civil = civilFromDays(days);
        appendCivilDate(out, year(civil), month(civil), day(civil));
        out.append(' ');
        appendTime(out, timeOfDay);
        if (withOffset) {
            SessionTimeZone.appendOffset(out, offsetSeconds);
        }
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
