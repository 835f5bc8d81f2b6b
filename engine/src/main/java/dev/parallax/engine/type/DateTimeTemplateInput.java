package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DateTimeTemplate.Field;
import dev.parallax.engine.type.DateTimeTemplate.Node;

/**
 * Reads text by a {@link DateTimeTemplate}, as PostgreSQL 15's {@code to_timestamp(text, text)} and
 * {@code to_date(text, text)} do (formatting.c's DCH_from_char and do_to_timestamp): blanks are
 * skipped before fields; a blank or separator in the template matches one blank or separator of
 * the input, or none; other literal characters (and quoted text) skip one input character each
 * (FX: every literal character skips one); a number field takes as many digits as there are when
 * FM or a non-digit follows it in the template, else exactly its width (YYYYMMDD); names (Month,
 * Mon, Day, Dy, AM, AD...) match case-insensitively. Fields not given default to 1 BC-01-01
 * 00:00:00, as in PostgreSQL; a value given twice differently is 22007. Day names, D and Q are read
 * and ignored, as PostgreSQL ignores them; week, ISO and century fields are not supported (0A000).
 * One instance reads one value at a time, allocating nothing unless it fails; it is not thread-safe.
 */
public final class DateTimeTemplateInput {
    private static final String[] MERIDIEMS = {"am", "pm"};
    private static final String[] MERIDIEMS_DOTS = {"a.m.", "p.m."};
    private static final String[] ERAS = {"ad", "bc"};
    private static final String[] ERAS_DOTS = {"a.d.", "b.c."};

    private final Node[] nodes;
    /** Each literal node's text, decoded once. */
    private final String[] literals;
    // The fields read, 0 for not given as in PostgreSQL's TmFromChar.
    private CharSequence input;
    private int position;
    private int year;
    private int yearDigits;
    private int era;
    private int month;
    private int day;
    private int dayOfYear;
    private int hour;
    private boolean twelveHourClock;
    private int afternoon;
    private int minute;
    private int second;
    private int millisecond;
    private int microsecond;
    private int secondsOfDay;
    private int julianDay;

    public DateTimeTemplateInput(DateTimeTemplate template) {
        this.nodes = template.nodes();
        this.literals = new String[nodes.length];
        for (int index = 0; index < nodes.length; index++) {
            if (nodes[index].field() == Field.LITERAL) {
                literals[index] = new String(nodes[index].literal(), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
    }

    /** The timestamp (microseconds since 1970-01-01) {@code text} denotes; 22007 or 22008 as PostgreSQL when it cannot. */
    public long timestamp(CharSequence text) {
        read(text);
        return compose(text);
    }

    private void read(CharSequence text) {
        input = text;
        position = 0;
        year = yearDigits = era = month = day = dayOfYear = hour = afternoon = minute = second = 0;
        millisecond = microsecond = secondsOfDay = julianDay = 0;
        twelveHourClock = false;
        int extraSkip = 0;
        for (int index = 0; index < nodes.length && position < input.length(); index++) {
            Node node = nodes[index];
            if (node.field() == Field.LITERAL) {
                String literal = literals[index];
                for (int character = 0; character < literal.length() && position < input.length(); character++) {
                    if (!node.fixedFormat() && index == 0 && character == 0) {
                        extraSkip += skipBlanks();
                    }
                    char templateCharacter = literal.charAt(character);
                    boolean separator = !node.quoted() && (templateCharacter == ' ' || isSeparator(templateCharacter));
                    if (node.fixedFormat()) {
                        position = Character.offsetByCodePoints(input, position, 1);
                    } else if (separator) {
                        extraSkip--;
                        if (position < input.length() && (Character.isWhitespace(input.charAt(position)) || isSeparator(input.charAt(position)))) {
                            position++;
                            extraSkip++;
                        }
                    } else if (extraSkip > 0) {
                        // Blanks skipped beyond what the template asked for stand for this character.
                        extraSkip--;
                    } else {
                        position = Character.offsetByCodePoints(input, position, 1);
                    }
                }
                continue;
            }
            if (!node.fixedFormat()) {
                skipBlanks();
            }
            readField(node, index);
            if (!node.fixedFormat()) {
                extraSkip = skipBlanks();
            }
        }
    }

    private void readField(Node node, int index) {
        switch (node.field()) {
            case HOUR24 -> hour = set(hour, number(node, index, 2), node);
            case HOUR12 -> {
                hour = set(hour, number(node, index, 2), node);
                twelveHourClock = true;
            }
            case MINUTE -> minute = set(minute, number(node, index, 2), node);
            case SECOND -> second = set(second, number(node, index, 2), node);
            case MILLISECOND -> {
                int start = position;
                int value = number(node, index, 3);
                int digits = position - start;
                millisecond = set(millisecond, value * (digits == 1 ? 100 : digits == 2 ? 10 : 1), node);
            }
            case MICROSECOND -> {
                int start = position;
                int value = number(node, index, 6);
                int digits = position - start;
                microsecond = set(microsecond, value * (int) Math.pow(10, Math.max(0, 6 - digits)), node);
            }
            case SECONDS_OF_DAY -> secondsOfDay = set(secondsOfDay, number(node, index, node.pattern().length()), node);
            case MERIDIEM -> {
                afternoon = set(afternoon, choice(MERIDIEMS, node) + 1, node);
                twelveHourClock = true;
            }
            case MERIDIEM_DOTS -> {
                afternoon = set(afternoon, choice(MERIDIEMS_DOTS, node) + 1, node);
                twelveHourClock = true;
            }
            case ERA -> era = set(era, choice(ERAS, node) + 1, node);
            case ERA_DOTS -> era = set(era, choice(ERAS_DOTS, node) + 1, node);
            case MONTH_NAME -> month = set(month, choice(DateTimeTemplate.MONTHS, node) + 1, node);
            case MONTH_ABBREVIATION -> month = set(month, choice(DateTimeTemplate.MONTH_ABBREVIATIONS, node) + 1, node);
            case MONTH -> month = set(month, number(node, index, 2), node);
            case DAY_NAME -> choice(DateTimeTemplate.DAYS, node);
            case DAY_ABBREVIATION -> choice(DateTimeTemplate.DAY_ABBREVIATIONS, node);
            case DAY_OF_WEEK, QUARTER -> number(node, index, 1);
            case DAY_OF_YEAR -> dayOfYear = set(dayOfYear, number(node, index, 3), node);
            case DAY_OF_MONTH -> day = set(day, number(node, index, 2), node);
            case YEAR_COMMA -> {
                int start = position;
                int thousands = number(node, index, 1);
                if (position >= input.length() || input.charAt(position) != ',') {
                    throw invalidValue(input.subSequence(start, input.length()).toString(), node, "Value must be an integer.");
                }
                position++;
                int rest = number(node, index, 3);
                year = set(year, thousands * 1000 + rest, node);
                yearDigits = 4;
            }
            case YEAR4 -> {
                year = set(year, number(node, index, 4), node);
                yearDigits = 4;
            }
            case YEAR3, YEAR2, YEAR1 -> {
                int start = position;
                int value = number(node, index, node.pattern().length());
                year = set(year, position - start < 4 ? towards2020(value) : value, node);
                yearDigits = node.pattern().length();
            }
            case JULIAN_DAY -> julianDay = set(julianDay, number(node, index, 1), node);
            case LITERAL -> throw new IllegalStateException("literal text read as a field");
            case ISO_YEAR4, ISO_YEAR3, ISO_YEAR2, ISO_YEAR1, ISO_DAY_OF_YEAR, ISO_DAY_OF_WEEK, ISO_WEEK, WEEK_OF_YEAR,
                 WEEK_OF_MONTH, CENTURY -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "the template pattern \"%s\" is not supported in to_timestamp and to_date", node.pattern());
        }
        if (node.ordinal() != null) {
            // TH/th after a number: its two letters (st, nd, rd, th) are skipped.
            position = Math.min(input.length(), position + 2);
        }
    }

    /**
     * A number field: blanks skipped, then as many digits (and a sign) as there are when FM or a
     * non-digit follows in the template, else exactly {@code width} characters.
     */
    private int number(Node node, int index, int width) {
        while (position < input.length() && Character.isWhitespace(input.charAt(position))) {
            position++;
        }
        int start = position;
        boolean slurp = node.fillMode() || nextIsSeparator(node, index);
        int limit = slurp ? input.length() : Math.min(input.length(), start + width);
        if (!slurp && limit - start < width) {
            throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "source string too short for \"%s\" formatting field",
                    node.pattern());
        }
        int end = start;
        boolean negative = false;
        if (end < limit && (input.charAt(end) == '-' || input.charAt(end) == '+')) {
            negative = input.charAt(end) == '-';
            end++;
        }
        int digitsStart = end;
        long value = 0;
        while (end < limit && input.charAt(end) >= '0' && input.charAt(end) <= '9') {
            value = Math.min(value * 10 + (input.charAt(end) - '0'), 1L << 40);
            end++;
        }
        if (end == digitsStart) {
            throw invalidValue(copy(start, width), node, "Value must be an integer.");
        }
        if (!slurp && end - start < width) {
            throw invalidValue(copy(start, width), node,
                    "Field requires " + width + " characters, but only " + (end - start) + " could be parsed.");
        }
        value = negative ? -value : value;
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "value for \"%s\" in source string is out of range", node.pattern());
        }
        position = end;
        return (int) value;
    }

    /** Up to {@code width} characters of the input from {@code start}, as PostgreSQL quotes a field it cannot read. */
    private String copy(int start, int width) {
        return input.subSequence(start, Math.min(input.length(), start + width)).toString();
    }

    /** PostgreSQL's is_next_separator: the field ends where its digits end (TH, the template's end, or a non-digit next). */
    private boolean nextIsSeparator(Node node, int index) {
        if (node.ordinal() != null || index + 1 >= nodes.length) {
            return true;
        }
        Node next = nodes[index + 1];
        if (next.field() != Field.LITERAL) {
            return !isDigitField(next.field());
        }
        return !(next.literal().length == 1 && Character.isDigit(next.literal()[0]));
    }

    private static boolean isDigitField(Field field) {
        return switch (field) {
            case HOUR24, HOUR12, MINUTE, SECOND, MILLISECOND, MICROSECOND, SECONDS_OF_DAY, YEAR_COMMA, YEAR4, YEAR3, YEAR2,
                 YEAR1, ISO_YEAR4, ISO_YEAR3, ISO_YEAR2, ISO_YEAR1, MONTH, DAY_OF_YEAR, DAY_OF_MONTH, DAY_OF_WEEK,
                 ISO_DAY_OF_YEAR, ISO_DAY_OF_WEEK, ISO_WEEK, WEEK_OF_YEAR, WEEK_OF_MONTH, QUARTER, CENTURY, JULIAN_DAY -> true;
            case LITERAL, MERIDIEM, MERIDIEM_DOTS, MONTH_NAME, MONTH_ABBREVIATION, DAY_NAME, DAY_ABBREVIATION, ERA, ERA_DOTS -> false;
        };
    }

    /** The index of the name in {@code names} the input starts with (case-insensitively, the longest), or 22007. */
    private int choice(String[] names, Node node) {
        int found = -1;
        int foundLength = 0;
        for (int index = 0; index < names.length; index++) {
            String name = names[index];
            if (name.length() > foundLength && startsWithIgnoringCase(name)) {
                found = index;
                foundLength = name.length();
            }
        }
        if (found < 0) {
            int end = position;
            while (end < input.length() && !Character.isWhitespace(input.charAt(end))) {
                end++;
            }
            throw invalidValue(input.subSequence(position, end).toString(), node, "The given value did not match any of the allowed values for this field.");
        }
        position += foundLength;
        return found;
    }

    private boolean startsWithIgnoringCase(String name) {
        if (input.length() - position < name.length()) {
            return false;
        }
        for (int index = 0; index < name.length(); index++) {
            if (Character.toLowerCase(input.charAt(position + index)) != Character.toLowerCase(name.charAt(index))) {
                return false;
            }
        }
        return true;
    }

    private static int set(int current, int value, Node node) {
        if (current != 0 && current != value) {
            throw new ParallaxException(SqlState.INVALID_DATETIME_FORMAT,
                    "conflicting values for \"" + node.pattern() + "\" field in formatting string",
                    "This value contradicts a previous setting for the same field type.", null, 0, null);
        }
        return value;
    }

    private int skipBlanks() {
        int skipped = 0;
        while (position < input.length() && Character.isWhitespace(input.charAt(position))) {
            position++;
            skipped++;
        }
        return skipped;
    }

    /** PostgreSQL's is_separator_char: printable ASCII that is not a letter or digit (nor a blank). */
    private static boolean isSeparator(char character) {
        return character > 0x20 && character < 0x7F && !Character.isLetterOrDigit(character);
    }

    /** PostgreSQL's adjust_partial_year_to_2020 for years written with fewer than 4 digits. */
    private static int towards2020(int year) {
        if (year < 70) {
            return year + 2000;
        }
        if (year < 100) {
            return year + 1900;
        }
        if (year < 520) {
            return year + 2000;
        }
        if (year < 1000) {
            return year + 1000;
        }
        return year;
    }

    /** do_to_timestamp: the fields read turned into a timestamp, checked as PostgreSQL checks them. */
    private long compose(CharSequence text) {
        long storedYear = 0;
        int storedMonth = 1;
        int storedDay = 1;
        int storedHour = hour;
        int storedMinute = minute;
        int storedSecond = second;
        if (twelveHourClock) {
            if (storedHour < 1 || storedHour > 12) {
                throw new ParallaxException(SqlState.INVALID_DATETIME_FORMAT, "hour \"" + storedHour + "\" is invalid for the 12-hour clock",
                        null, "Use the 24-hour clock, or give an hour between 1 and 12.", 0, null);
            }
            if (afternoon == 2 && storedHour < 12) {
                storedHour += 12;
            } else if (afternoon != 2 && storedHour == 12) {
                storedHour = 0;
            }
        }
        if (secondsOfDay != 0) {
            storedHour = secondsOfDay / 3600;
            storedMinute = secondsOfDay % 3600 / 60;
            storedSecond = secondsOfDay % 60;
        }
        if (year != 0) {
            storedYear = era == 2 ? -(long) year : year;
            if (storedYear < 0) {
                storedYear++;
            }
        }
        if (julianDay != 0) {
            long civil = DateTimes.civilFromDays(julianDay - DateTimeTemplate.JULIAN_DAY_OF_EPOCH);
            storedYear = DateTimes.year(civil);
            storedMonth = DateTimes.month(civil);
            storedDay = DateTimes.day(civil);
        }
        if (day != 0) {
            storedDay = day;
        }
        if (month != 0) {
            storedMonth = month;
        }
        if (dayOfYear != 0 && (storedMonth <= 1 || storedDay <= 1)) {
            if (year == 0 && era != 2) {
                throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "cannot calculate day of year without year information");
            }
            long days = DateTimes.daysFromCivil(storedYear, 1, 1) + dayOfYear - 1;
            long civil = DateTimes.civilFromDays(days);
            if (dayOfYear < 1 || DateTimes.year(civil) != storedYear) {
                throw fieldOverflow(text);
            }
            storedMonth = DateTimes.month(civil);
            storedDay = DateTimes.day(civil);
        }
        long fraction = (long) millisecond * 1000 + microsecond;
        if (storedMonth < 1 || storedMonth > 12 || storedDay < 1 || storedDay > DateTimes.daysInMonth(storedYear, storedMonth)
                || storedHour < 0 || storedHour >= 24 || storedMinute < 0 || storedMinute >= 60 || storedSecond < 0
                || storedSecond >= 60 || fraction < 0 || fraction >= DateTimes.MICROS_PER_SECOND) {
            throw fieldOverflow(text);
        }
        long days = DateTimes.daysFromCivil(storedYear, storedMonth, storedDay);
        long micros;
        try {
            micros = Math.addExact(Math.multiplyExact(days, DateTimes.MICROS_PER_DAY), storedHour * DateTimes.MICROS_PER_HOUR
                    + storedMinute * DateTimes.MICROS_PER_MINUTE + storedSecond * DateTimes.MICROS_PER_SECOND + fraction);
        } catch (ArithmeticException beyondLong) {
            micros = DateTimes.TIMESTAMP_END_MICROS;
        }
        if (days < DateTimes.FIRST_DAY || micros >= DateTimes.TIMESTAMP_END_MICROS) {
            throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%s\"", text.toString());
        }
        return micros;
    }

    private static ParallaxException fieldOverflow(CharSequence text) {
        return ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%s\"", text);
    }

    private static ParallaxException invalidValue(String value, Node node, String detail) {
        return new ParallaxException(SqlState.INVALID_DATETIME_FORMAT, "invalid value \"" + value + "\" for \"" + node.pattern() + "\"",
                detail, null, 0, null);
    }
}
