package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's text input and output of values, for every type: what psql prints, what COPY reads
 * and writes, what casts to and from text do.
 */
public final class ValueText {
    private ValueText() {
    }

    /**
     * Parses {@code text} as a value of {@code type}, returning the engine representation (Long,
     * Double, byte[]); errors are 22P02 "invalid input syntax for type integer: \"x\"" and the like,
     * 22003 for out-of-range values, 22001 for too-long strings. Length limits are applied with
     * assignment semantics (as COPY and INSERT do): excess characters raise unless they are blanks.
     */
    public static Object parse(DataType type, String text) {
        return parse(type, text, SessionTimeZone.UTC);
    }

    /** {@link #parse(DataType, String)} reading a timestamp with time zone without its own zone in {@code zone}. */
    public static Object parse(DataType type, String text, SessionTimeZone zone) {
        return switch (type.kind()) {
            case BOOLEAN -> parseBoolean(text);
            case SMALLINT -> parseInteger(text, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER -> parseInteger(text, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> parseInteger(text, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case DECIMAL -> DecimalMath.parse(text, type.precision(), type.scale());
            case REAL -> parseFloat(text, type, true);
            case DOUBLE -> parseFloat(text, type, false);
            case DATE -> parseDate(text);
            case TIMESTAMP -> DateTimes.roundToPrecision(parseTimestamp(text), type);
            case TIMESTAMPTZ -> DateTimes.roundToPrecision(parseTimestampWithTimeZone(text, zone), type);
            case INTERVAL_YEAR_MONTH -> {
                long[] parts = IntervalMath.parse(text);
                if (parts[1] != 0) {
                    throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"%s\"", text);
                }
                yield parts[0];
            }
            case INTERVAL_DAY_TIME -> {
                long[] parts = IntervalMath.parse(text);
                if (parts[0] != 0) {
                    throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"%s\"", text);
                }
                yield parts[1];
            }
            case CHAR -> fitCharacters(text.getBytes(StandardCharsets.UTF_8), type, true, false);
            case VARCHAR -> fitCharacters(text.getBytes(StandardCharsets.UTF_8), type, false, false);
            case TEXT -> text.getBytes(StandardCharsets.UTF_8);
            case BIT, VARBIT -> fitBits(parseBits(text), type, false);
            case ARRAY -> ArrayValue.parse(type, text, zone);
            case UUID -> UuidValue.parse(text);
            case NULL -> null;
        };
    }

    /**
     * Appends PostgreSQL's {@code (a, b)=(1, x)} of a key in an error's DETAIL (23505's {@code Key ...
     * already exists.}, 23503's {@code Key ... is not present in table ...}): {@code names}, one per
     * key column, then the values of row {@code row} of {@code rows} in {@code columns} ({@code null}
     * for SQL NULL).
     */
    public static void appendKey(StringBuilder out, List<String> names, Batch rows, int row, int[] columns) {
        out.append('(').append(String.join(", ", names)).append(")=(");
        for (int index = 0; index < columns.length; index++) {
            if (index > 0) {
                out.append(", ");
            }
            ColumnVector vector = rows.column(columns[index]);
            if (vector.isNull(row)) {
                out.append("null");
            } else {
                append(out, vector, row);
            }
        }
        out.append(')');
    }

    /** Appends the text form of the (non-null) value at {@code position}, a timestamp with time zone's in UTC. */
    public static void append(StringBuilder out, ColumnVector vector, int position) {
        append(out, vector, position, SessionTimeZone.UTC);
    }

    /**
     * Appends the text form of the (non-null) value at {@code position}, exactly as PostgreSQL prints it
     * in a session whose TimeZone is {@code zone}.
     */
    public static void append(StringBuilder out, ColumnVector vector, int position, SessionTimeZone zone) {
        DataType type = vector.type();
        switch (type.kind()) {
            case BOOLEAN -> out.append(((LongVector) vector).get(position) != 0 ? 't' : 'f');
            case SMALLINT, INTEGER, BIGINT -> out.append(((LongVector) vector).get(position));
            case DECIMAL -> DecimalMath.append(out, ((LongVector) vector).get(position), type.scale());
            case REAL -> FloatText.appendReal(out, (float) ((DoubleVector) vector).get(position));
            case DOUBLE -> FloatText.appendDouble(out, ((DoubleVector) vector).get(position));
            case DATE -> DateTimes.appendDate(out, ((LongVector) vector).get(position));
            case TIMESTAMP -> DateTimes.appendTimestamp(out, ((LongVector) vector).get(position));
            case TIMESTAMPTZ -> DateTimes.appendTimestampWithTimeZone(out, ((LongVector) vector).get(position), zone);
            case INTERVAL_YEAR_MONTH -> IntervalMath.appendYearMonth(out, ((LongVector) vector).get(position));
            case INTERVAL_DAY_TIME -> IntervalMath.appendDayTime(out, ((LongVector) vector).get(position));
            case CHAR, VARCHAR, TEXT -> out.append(((BytesVector) vector).getString(position));
            case BIT, VARBIT -> {
                BytesVector bytes = (BytesVector) vector;
                appendBits(out, bytes.data(), bytes.offset(position));
            }
            case ARRAY -> {
                BytesVector bytes = (BytesVector) vector;
                ArrayValue.append(out, type, bytes.data(), bytes.offset(position), zone);
            }
            case UUID -> {
                BytesVector bytes = (BytesVector) vector;
                UuidValue.append(out, bytes.data(), bytes.offset(position));
            }
            case NULL -> {
                // An untyped NULL has no text; callers print NULL themselves.
            }
        }
    }

    /** Appends the text form of a value of a LONG-represented {@code type}, a timestamp with time zone's in UTC. */
    public static void appendLong(StringBuilder out, DataType type, long value) {
        appendLong(out, type, value, SessionTimeZone.UTC);
    }

    /** Appends the text form of a value of a LONG-represented {@code type}, a timestamp with time zone's in {@code zone}. */
    public static void appendLong(StringBuilder out, DataType type, long value, SessionTimeZone zone) {
        switch (type.kind()) {
            case BOOLEAN -> out.append(value != 0 ? 't' : 'f');
            case DECIMAL -> DecimalMath.append(out, value, type.scale());
            case DATE -> DateTimes.appendDate(out, value);
            case TIMESTAMP -> DateTimes.appendTimestamp(out, value);
            case TIMESTAMPTZ -> DateTimes.appendTimestampWithTimeZone(out, value, zone);
            case INTERVAL_YEAR_MONTH -> IntervalMath.appendYearMonth(out, value);
            case INTERVAL_DAY_TIME -> IntervalMath.appendDayTime(out, value);
            default -> out.append(value);
        }
    }

    /** Appends the text form of a value of a DOUBLE-represented {@code type}. */
    public static void appendDouble(StringBuilder out, DataType type, double value) {
        if (type.kind() == TypeKind.REAL) {
            FloatText.appendReal(out, (float) value);
        } else {
            FloatText.appendDouble(out, value);
        }
    }

    /** Appends the text form of a value of a BYTES-represented {@code type} held at {@code data[offset, offset + length)}. */
    public static void appendBytes(StringBuilder out, DataType type, byte[] data, int offset, int length) {
        switch (type.kind()) {
            case BIT, VARBIT -> appendBits(out, data, offset);
            case ARRAY -> ArrayValue.append(out, type, data, offset);
            case UUID -> UuidValue.append(out, data, offset);
            default -> out.append(new String(data, offset, length, StandardCharsets.UTF_8));
        }
    }

    /** The text form of the value at {@code position}, or null for SQL NULL. */
    public static String format(ColumnVector vector, int position) {
        return format(vector, position, SessionTimeZone.UTC);
    }

    /** The text form of the value at {@code position} in a session whose TimeZone is {@code zone}, or null for SQL NULL. */
    public static String format(ColumnVector vector, int position, SessionTimeZone zone) {
        if (vector.isNull(position)) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        append(out, vector, position, zone);
        return out.toString();
    }

    /** Appends the digits of a {@link BitString}-encoded value starting at {@code offset}. */
    public static void appendBits(StringBuilder out, byte[] data, int offset) {
        int bitCount = BitString.bitCount(data, offset);
        for (int bit = 0; bit < bitCount; bit++) {
            int value = data[offset + BitString.HEADER_BYTES + bit / 8] & (0x80 >>> (bit % 8));
            out.append(value == 0 ? '0' : '1');
        }
    }

    /** PostgreSQL's boolin: t/f, true/false, yes/no, on/off, 1/0 and unique prefixes, any case, blanks around. */
    public static long parseBoolean(String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        if (!value.isEmpty()) {
            if ("true".startsWith(value) || "yes".startsWith(value) || value.equals("on") || value.equals("1")) {
                return 1L;
            }
            if ("false".startsWith(value) || "no".startsWith(value) || (value.length() >= 2 && "off".startsWith(value))
                    || value.equals("0")) {
                return 0L;
            }
        }
        throw ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type boolean: \"%s\"", text);
    }

    private static long parseInteger(String text, DataType type, long minimum, long maximum) {
        int start = 0;
        int end = text.length();
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        int index = start;
        boolean negative = false;
        if (index < end && (text.charAt(index) == '+' || text.charAt(index) == '-')) {
            negative = text.charAt(index) == '-';
            index++;
        }
        if (index == end) {
            throw invalidSyntax(type, text);
        }
        // Accumulate negatively so that Long.MIN_VALUE parses.
        long value = 0;
        boolean overflow = false;
        boolean previousUnderscore = true;
        for (; index < end; index++) {
            char character = text.charAt(index);
            if (character == '_' && !previousUnderscore && index + 1 < end) {
                previousUnderscore = true;
                continue;
            }
            if (character < '0' || character > '9') {
                throw invalidSyntax(type, text);
            }
            previousUnderscore = false;
            int digit = character - '0';
            if (value < (Long.MIN_VALUE + digit) / 10) {
                overflow = true;
            } else {
                value = value * 10 - digit;
            }
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                overflow = true;
            }
            value = -value;
        }
        if (overflow || value < minimum || value > maximum) {
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"%s\" is out of range for type %s",
                    text, type.sqlName());
        }
        return value;
    }

    private static double parseFloat(String text, DataType type, boolean real) {
        String value = text.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "nan", "+nan", "-nan" -> {
                return Double.NaN;
            }
            case "infinity", "+infinity", "inf", "+inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-infinity", "-inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                // fall through to numeric forms
            }
        }
        boolean digit = false;
        for (int index = 0; index < lower.length(); index++) {
            char character = lower.charAt(index);
            if (character >= '0' && character <= '9') {
                digit = true;
            } else if (character != '.' && character != 'e' && character != '+' && character != '-') {
                throw invalidSyntax(type, text);
            }
        }
        if (!digit) {
            throw invalidSyntax(type, text);
        }
        double parsed;
        try {
            parsed = real ? Float.parseFloat(lower) : Double.parseDouble(lower);
        } catch (NumberFormatException malformed) {
            throw invalidSyntax(type, text);
        }
        if (Double.isInfinite(parsed) || (parsed == 0 && hasNonZeroDigit(lower))) {
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"%s\" is out of range for type %s",
                    value, type.sqlName());
        }
        return parsed;
    }

    private static boolean hasNonZeroDigit(String number) {
        for (int index = 0; index < number.length(); index++) {
            char character = number.charAt(index);
            if (character == 'e') {
                return false;
            }
            if (character >= '1' && character <= '9') {
                return true;
            }
        }
        return false;
    }

    /**
     * Dates: ISO {@code YYYY-MM-DD} (also with {@code /} or {@code .}), {@code YYYYMMDD}, PostgreSQL's default
     * MDY {@code MM/DD/YYYY}, an optional {@code BC}, and a trailing midnight time.
     */
    public static long parseDate(String text) {
        String value = text.strip();
        boolean beforeChrist = false;
        if (value.regionMatches(true, Math.max(0, value.length() - 3), " BC", 0, 3) && value.length() > 3) {
            beforeChrist = true;
            value = value.substring(0, value.length() - 3).strip();
        }
        int blank = value.indexOf(' ');
        int letterT = value.indexOf('T');
        int split = blank >= 0 ? blank : letterT;
        if (split > 0) {
            String timePart = withoutTimeZone(value.substring(split + 1).strip());
            long time = timePart.isEmpty() ? 0 : parseTimeOfDay(timePart, text, "date");
            if (time != 0) {
                // PostgreSQL's date input ignores a time part; keep it strictly to midnight-free forms anyway.
                time = 0;
            }
            value = value.substring(0, split);
        }
        long[] fields = dateFields(value, text, "date");
        long year = beforeChrist ? 1 - fields[0] : fields[0];
        return DateTimes.checkedDays(year, (int) fields[1], (int) fields[2], text);
    }

    /** Timestamps: a date as {@link #parseDate} reads it, then optionally {@code HH:MM[:SS[.fraction]]} after a blank or T. */
    public static long parseTimestamp(String text) {
        return parseLocalTimestamp(text.strip(), text, "timestamp");
    }

    /**
     * Timestamps with time zone: a timestamp as {@link #parseTimestamp} reads it, then an optional zone: an
     * ISO offset ({@code +02}, {@code -03:30}, {@code +0530}, {@code Z}) or a zone name after a blank
     * ({@code Europe/Paris}, {@code UTC}); without one the local time is read in {@code sessionZone}.
     * Returns UTC microseconds since 1970-01-01.
     */
    public static long parseTimestampWithTimeZone(String text, SessionTimeZone sessionZone) {
        String value = text.strip();
        String typeName = "timestamp with time zone";
        boolean beforeChrist = false;
        if (value.length() > 3 && value.regionMatches(true, value.length() - 3, " BC", 0, 3)) {
            beforeChrist = true;
            value = value.substring(0, value.length() - 3).strip();
        }
        SessionTimeZone zone = sessionZone;
        Integer offsetSeconds = null;
        int lastBlank = lastBlank(value);
        if (lastBlank > 0 && Character.isLetter(value.charAt(lastBlank + 1)) && Character.isDigit(value.charAt(0))) {
            String name = value.substring(lastBlank + 1);
            // PostgreSQL's datetime parser lower-cases the words it reads, which its error shows.
            zone = name.equalsIgnoreCase("z") ? SessionTimeZone.UTC : SessionTimeZone.named(name.toLowerCase(java.util.Locale.ROOT));
            value = value.substring(0, lastBlank).strip();
        } else if (value.endsWith("Z") || value.endsWith("z")) {
            offsetSeconds = 0;
            value = value.substring(0, value.length() - 1).strip();
        } else {
            int timeStart = value.indexOf(' ') > 0 ? value.indexOf(' ') : value.indexOf('T');
            int sign = timeStart > 0 ? Math.max(value.lastIndexOf('+'), value.lastIndexOf('-')) : -1;
            if (sign > timeStart) {
                String offset = value.substring(sign + 1);
                if (!offset.matches("\\d{1,2}(:?\\d{2}){0,2}")) {
                    throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type %s: \"%s\"", typeName, text);
                }
                String digits = offset.replace(":", "");
                int hours = Integer.parseInt(digits.substring(0, digits.length() % 2 == 1 ? 1 : 2));
                String rest = digits.substring(digits.length() % 2 == 1 ? 1 : 2);
                int minutes = rest.length() >= 2 ? Integer.parseInt(rest.substring(0, 2)) : 0;
                int seconds = rest.length() >= 4 ? Integer.parseInt(rest.substring(2, 4)) : 0;
                if (hours > 15 || minutes > 59 || seconds > 59) {
                    throw ParallaxException.of(SqlState.INVALID_TIME_ZONE_DISPLACEMENT_VALUE, "time zone displacement out of range: \"%s\"", text);
                }
                int magnitude = hours * 3600 + minutes * 60 + seconds;
                offsetSeconds = value.charAt(sign) == '-' ? -magnitude : magnitude;
                value = value.substring(0, sign).strip();
            }
        }
        long local = parseLocalTimestamp(beforeChrist ? value + " BC" : value, text, typeName);
        return offsetSeconds != null ? local - offsetSeconds * DateTimes.MICROS_PER_SECOND : zone.toUtc(local);
    }

    private static int lastBlank(String value) {
        for (int index = value.length() - 1; index >= 0; index--) {
            if (Character.isWhitespace(value.charAt(index))) {
                return index;
            }
        }
        return -1;
    }

    private static long parseLocalTimestamp(String value, String text, String typeName) {
        boolean beforeChrist = false;
        if (value.length() > 3 && value.regionMatches(true, value.length() - 3, " BC", 0, 3)) {
            beforeChrist = true;
            value = value.substring(0, value.length() - 3).strip();
        }
        int split = value.indexOf(' ');
        if (split < 0) {
            split = value.indexOf('T');
        }
        long timeOfDay = 0;
        String datePart = value;
        if (split > 0) {
            String timePart = withoutTimeZone(value.substring(split + 1).strip());
            timeOfDay = timePart.isEmpty() ? 0 : parseTimeOfDay(timePart, text, typeName);
            datePart = value.substring(0, split);
        }
        long[] fields = dateFields(datePart, text, typeName);
        long year = beforeChrist ? 1 - fields[0] : fields[0];
        long days = DateTimes.checkedDays(year, (int) fields[1], (int) fields[2], text);
        return days * DateTimes.MICROS_PER_DAY + timeOfDay;
    }

    private static long[] dateFields(String value, String text, String typeName) {
        String[] parts = value.split("[-/.]", -1);
        try {
            if (parts.length == 3) {
                if (parts[0].length() >= 3) {
                    return new long[] {number(parts[0]), (int) number(parts[1]), (int) number(parts[2])};
                }
                if (parts[2].length() >= 3) {
                    // PostgreSQL's default DateStyle is MDY.
                    return new long[] {number(parts[2]), (int) number(parts[0]), (int) number(parts[1])};
                }
            } else if (parts.length == 1 && value.length() == 8) {
                return new long[] {number(value.substring(0, 4)), number(value.substring(4, 6)), number(value.substring(6, 8))};
            }
        } catch (NumberFormatException malformed) {
            // reported below
        }
        throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type %s: \"%s\"", typeName, text);
    }

    private static long number(String digits) {
        if (digits.isEmpty() || digits.length() > 9) {
            throw new NumberFormatException(digits);
        }
        for (int index = 0; index < digits.length(); index++) {
            if (digits.charAt(index) < '0' || digits.charAt(index) > '9') {
                throw new NumberFormatException(digits);
            }
        }
        return Long.parseLong(digits);
    }

    /**
     * The time of day without a trailing zone ({@code +05}, {@code -03:30}, {@code Z}): PostgreSQL
     * silently ignores a time zone in a timestamp without time zone (pgJDBC sends setTimestamp that way).
     */
    private static String withoutTimeZone(String time) {
        int end = time.length();
        if (end > 0 && (time.charAt(end - 1) == 'Z' || time.charAt(end - 1) == 'z')) {
            return time.substring(0, end - 1).strip();
        }
        for (int index = end - 1; index >= 0; index--) {
            char character = time.charAt(index);
            if (character == '+' || character == '-') {
                String zone = time.substring(index + 1);
                return zone.matches("\\d{1,2}(:?\\d{2}){0,2}") ? time.substring(0, index).strip() : time;
            }
            if (!Character.isDigit(character) && character != ':') {
                return time;
            }
        }
        return time;
    }

    private static long parseTimeOfDay(String value, String text, String typeName) {
        String[] parts = value.split(":", -1);
        try {
            if (parts.length == 2 || parts.length == 3) {
                long hours = number(parts[0]);
                long minutes = number(parts[1]);
                long micros = 0;
                if (parts.length == 3) {
                    String seconds = parts[2];
                    int point = seconds.indexOf('.');
                    long wholeSeconds = number(point < 0 ? seconds : seconds.substring(0, point));
                    long fraction = 0;
                    if (point >= 0) {
                        String fractionDigits = seconds.substring(point + 1);
                        if (!fractionDigits.isEmpty()) {
                            number(fractionDigits.length() > 9 ? fractionDigits.substring(0, 9) : fractionDigits);
                        }
                        // Round to microseconds, half away from zero.
                        for (int index = 0; index < 7; index++) {
                            fraction = fraction * 10 + (index < fractionDigits.length() ? fractionDigits.charAt(index) - '0' : 0);
                        }
                        fraction = (fraction + 5) / 10;
                    }
                    if (wholeSeconds > 60) {
                        throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%s\"", text);
                    }
                    micros = wholeSeconds * DateTimes.MICROS_PER_SECOND + fraction;
                }
                if (hours > 24 || minutes > 59 || (hours == 24 && (minutes != 0 || micros != 0))) {
                    throw ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%s\"", text);
                }
                return hours * DateTimes.MICROS_PER_HOUR + minutes * DateTimes.MICROS_PER_MINUTE + micros;
            }
        } catch (NumberFormatException malformed) {
            // reported below
        }
        throw ParallaxException.of(SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type %s: \"%s\"", typeName, text);
    }

    /** Parses bit-string text: digits, or {@code B}/{@code X}-prefixed binary/hex digits as bit_in accepts. */
    public static byte[] parseBits(String text) {
        if (!text.isEmpty() && (text.charAt(0) == 'x' || text.charAt(0) == 'X')) {
            StringBuilder bits = new StringBuilder(text.length() * 4);
            for (int index = 1; index < text.length(); index++) {
                int digit = Character.digit(text.charAt(index), 16);
                if (digit < 0) {
                    throw ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION,
                            "\"%c\" is not a valid hexadecimal digit", text.charAt(index));
                }
                for (int shift = 3; shift >= 0; shift--) {
                    bits.append((digit >> shift & 1) == 0 ? '0' : '1');
                }
            }
            return BitString.parse(bits);
        }
        if (!text.isEmpty() && (text.charAt(0) == 'b' || text.charAt(0) == 'B')) {
            return BitString.parse(text.substring(1));
        }
        return BitString.parse(text);
    }

    /**
     * Fits UTF-8 text to CHAR(n) / VARCHAR(n): CHAR is blank-padded to n characters. Excess
     * characters are cut when {@code explicit} (an explicit cast) or when they are all blanks;
     * otherwise 22001 "value too long for type character varying(n)".
     */
    public static byte[] fitCharacters(byte[] utf8, DataType type, boolean pad, boolean explicit) {
        int limit = type.length();
        if (limit == DataType.UNBOUNDED) {
            return utf8;
        }
        int characters = 0;
        int cut = -1;
        for (int index = 0; index < utf8.length; index++) {
            if ((utf8[index] & 0xC0) != 0x80) {
                if (characters == limit) {
                    cut = index;
                }
                characters++;
            }
        }
        if (cut >= 0) {
            if (!explicit) {
                for (int index = cut; index < utf8.length; index++) {
                    if (utf8[index] != ' ') {
                        throw ParallaxException.of(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value too long for type %s",
                                type.sqlName());
                    }
                }
            }
            return java.util.Arrays.copyOf(utf8, cut);
        }
        if (pad && characters < limit) {
            byte[] padded = java.util.Arrays.copyOf(utf8, utf8.length + limit - characters);
            java.util.Arrays.fill(padded, utf8.length, padded.length, (byte) ' ');
            return padded;
        }
        return utf8;
    }

    /**
     * Fits an encoded bit string to BIT(n) / VARBIT(n). BIT(n) needs exactly n bits unless
     * {@code explicit} (then it is zero-padded or cut on the right); VARBIT(n) cuts when explicit,
     * else raises 22001.
     */
    public static byte[] fitBits(byte[] encoded, DataType type, boolean explicit) {
        int limit = type.length();
        int bitCount = BitString.bitCount(encoded, 0);
        if (limit == DataType.UNBOUNDED || bitCount == limit || (type.kind() == TypeKind.VARBIT && bitCount < limit)) {
            return encoded;
        }
        if (!explicit) {
            if (type.kind() == TypeKind.BIT) {
                throw ParallaxException.of(SqlState.STRING_DATA_LENGTH_MISMATCH, "bit string length %d does not match type bit(%d)",
                        bitCount, limit);
            }
            throw ParallaxException.of(SqlState.STRING_DATA_RIGHT_TRUNCATION, "bit string too long for type bit varying(%d)", limit);
        }
        byte[] resized = new byte[BitString.HEADER_BYTES + (limit + 7) / 8];
        BitString.writeBitCount(resized, limit);
        int copied = Math.min(bitCount, limit);
        for (int bit = 0; bit < copied; bit++) {
            if ((encoded[BitString.HEADER_BYTES + bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                resized[BitString.HEADER_BYTES + bit / 8] |= (byte) (0x80 >>> (bit % 8));
            }
        }
        return resized;
    }

    private static ParallaxException invalidSyntax(DataType type, String text) {
        return ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type %s: \"%s\"",
                type.sqlName(), text);
    }
}
