package dev.parallax.engine.type;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A template of PostgreSQL's {@code to_char(timestamp, text)}, parsed once: the patterns HH24 HH12
 * HH MI SS MS US SSSS SSSSS, AM PM A.M. P.M., Y,YYY YYYY YYY YY Y, IYYY IYY IY I, MONTH Month
 * month MON Mon mon MM, DAY Day day DY Dy dy, DDD DD D, IDDD ID IW WW W, Q CC J, AD BC A.D. B.C.
 * (numeric and upper-case patterns also in lower case), the prefix FM (no padding; TM leaves
 * names unpadded, in English as there are no locales; FX changes nothing), the suffix TH/th (ordinal), double-quoted text
 * ({@code \"} inside); anything else is copied as it is, as PostgreSQL does. Like PostgreSQL, at
 * each place the longest pattern written there is taken, in the case written.
 */
public final class DateTimeTemplate {
    static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December"};
    static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    static final String[] MONTH_ABBREVIATIONS = abbreviations(MONTHS);
    static final String[] DAY_ABBREVIATIONS = abbreviations(DAYS);
    static final long JULIAN_DAY_OF_EPOCH = 2_440_588;

    enum Field {
        LITERAL, HOUR24, HOUR12, MINUTE, SECOND, MILLISECOND, MICROSECOND, SECONDS_OF_DAY,
        MERIDIEM, MERIDIEM_DOTS, YEAR_COMMA, YEAR4, YEAR3, YEAR2, YEAR1, ISO_YEAR4, ISO_YEAR3, ISO_YEAR2, ISO_YEAR1,
        MONTH_NAME, MONTH_ABBREVIATION, MONTH, DAY_NAME, DAY_ABBREVIATION, DAY_OF_YEAR, DAY_OF_MONTH, DAY_OF_WEEK,
        ISO_DAY_OF_YEAR, ISO_DAY_OF_WEEK, ISO_WEEK, WEEK_OF_YEAR, WEEK_OF_MONTH, QUARTER, CENTURY, JULIAN_DAY,
        ERA, ERA_DOTS
    }

    /** How a name or marker is spelled: as the pattern's case (MONTH, Month, month). */
    enum Spelling { UPPER, CAPITALIZED, LOWER }

    private record Keyword(String text, Field field, Spelling spelling) {
    }

    /**
     * One pattern or run of literal text. {@code pattern} is the pattern as written (HH24, Month),
     * {@code quoted} tells double-quoted text from other literal characters, and {@code fixedFormat}
     * whether FX came before: what {@link DateTimeTemplateInput} reads, to_char ignores them.
     */
    record Node(Field field, Spelling spelling, boolean fillMode, Spelling ordinal, byte[] literal, String pattern,
                boolean quoted, boolean fixedFormat) {
    }

    /** Longest first, so that HH24 wins over HH and DDD over DD over D. */
    private static final List<Keyword> KEYWORDS = keywords();

    private final Node[] nodes;

    private DateTimeTemplate(Node[] nodes) {
        this.nodes = nodes;
    }

    private static String[] abbreviations(String[] names) {
        String[] abbreviations = new String[names.length];
        for (int index = 0; index < names.length; index++) {
            abbreviations[index] = names[index].substring(0, 3);
        }
        return abbreviations;
    }

    private static List<Keyword> keywords() {
        List<Keyword> keywords = new ArrayList<>();
        Object[][] upper = {
                {"HH24", Field.HOUR24}, {"HH12", Field.HOUR12}, {"HH", Field.HOUR12}, {"MI", Field.MINUTE}, {"SSSSS", Field.SECONDS_OF_DAY},
                {"SSSS", Field.SECONDS_OF_DAY}, {"SS", Field.SECOND}, {"MS", Field.MILLISECOND}, {"US", Field.MICROSECOND},
                {"AM", Field.MERIDIEM}, {"PM", Field.MERIDIEM}, {"A.M.", Field.MERIDIEM_DOTS}, {"P.M.", Field.MERIDIEM_DOTS},
                {"Y,YYY", Field.YEAR_COMMA}, {"YYYY", Field.YEAR4}, {"YYY", Field.YEAR3}, {"YY", Field.YEAR2}, {"Y", Field.YEAR1},
                {"IYYY", Field.ISO_YEAR4}, {"IYY", Field.ISO_YEAR3}, {"IY", Field.ISO_YEAR2}, {"I", Field.ISO_YEAR1},
                {"MONTH", Field.MONTH_NAME}, {"MON", Field.MONTH_ABBREVIATION}, {"MM", Field.MONTH},
                {"DAY", Field.DAY_NAME}, {"DY", Field.DAY_ABBREVIATION}, {"DDD", Field.DAY_OF_YEAR}, {"DD", Field.DAY_OF_MONTH},
                {"D", Field.DAY_OF_WEEK}, {"IDDD", Field.ISO_DAY_OF_YEAR}, {"ID", Field.ISO_DAY_OF_WEEK}, {"IW", Field.ISO_WEEK},
                {"WW", Field.WEEK_OF_YEAR}, {"W", Field.WEEK_OF_MONTH}, {"Q", Field.QUARTER}, {"CC", Field.CENTURY},
                {"J", Field.JULIAN_DAY}, {"AD", Field.ERA}, {"BC", Field.ERA}, {"A.D.", Field.ERA_DOTS}, {"B.C.", Field.ERA_DOTS}};
        for (Object[] entry : upper) {
            String text = (String) entry[0];
            Field field = (Field) entry[1];
            keywords.add(new Keyword(text, field, Spelling.UPPER));
            keywords.add(new Keyword(text.toLowerCase(Locale.ROOT), field, Spelling.LOWER));
        }
        keywords.add(new Keyword("Month", Field.MONTH_NAME, Spelling.CAPITALIZED));
        keywords.add(new Keyword("Mon", Field.MONTH_ABBREVIATION, Spelling.CAPITALIZED));
        keywords.add(new Keyword("Day", Field.DAY_NAME, Spelling.CAPITALIZED));
        keywords.add(new Keyword("Dy", Field.DAY_ABBREVIATION, Spelling.CAPITALIZED));
        keywords.sort((left, right) -> Integer.compare(right.text().length(), left.text().length()));
        return List.copyOf(keywords);
    }

    /** The template's patterns and literal text in order. */
    Node[] nodes() {
        return nodes;
    }

    public static DateTimeTemplate parse(String format) {
        List<Node> nodes = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        boolean fixedFormat = false;
        int index = 0;
        while (index < format.length()) {
            boolean fillMode = false;
            boolean unpaddedNames = false;
            int start = index;
            // Prefixes: FM (fill mode), TM (translation) and FX (exact input format) before a pattern.
            while (true) {
                if (format.startsWith("FM", index) || format.startsWith("fm", index)) {
                    fillMode = true;
                    index += 2;
                } else if (format.startsWith("TM", index) || format.startsWith("tm", index)) {
                    // Translated names are not padded (PostgreSQL pads only the untranslated ones).
                    unpaddedNames = true;
                    index += 2;
                } else if (format.startsWith("FX", index) || format.startsWith("fx", index)) {
                    fixedFormat = true;
                    index += 2;
                } else {
                    break;
                }
            }
            Keyword keyword = keywordAt(format, index);
            if (keyword != null) {
                index += keyword.text().length();
                Spelling ordinal = null;
                if (format.startsWith("TH", index)) {
                    ordinal = Spelling.UPPER;
                    index += 2;
                } else if (format.startsWith("th", index)) {
                    ordinal = Spelling.LOWER;
                    index += 2;
                }
                flush(literal, nodes, false, fixedFormat);
                boolean name = keyword.field() == Field.MONTH_NAME || keyword.field() == Field.DAY_NAME;
                nodes.add(new Node(keyword.field(), keyword.spelling(), fillMode || name && unpaddedNames, ordinal, null,
                        keyword.text(), false, fixedFormat));
                continue;
            }
            if (index > start) {
                // Prefixes with no pattern after them print nothing.
                continue;
            }
            char character = format.charAt(index);
            if (character == '"') {
                flush(literal, nodes, false, fixedFormat);
                index = quotedText(format, index, literal);
                flush(literal, nodes, true, fixedFormat);
            } else if (character == '\\' && index + 1 < format.length() && format.charAt(index + 1) == '"') {
                literal.append('"');
                index += 2;
            } else {
                literal.append(character);
                index++;
            }
        }
        flush(literal, nodes, false, fixedFormat);
        return new DateTimeTemplate(nodes.toArray(Node[]::new));
    }

    /**
     * Appends the double-quoted text at {@code index} (the opening quote) to {@code literal},
     * a backslash taking the next character as it is; returns the index after the closing quote.
     */
    static int quotedText(String format, int index, StringBuilder literal) {
        index++;
        while (index < format.length() && format.charAt(index) != '"') {
            if (format.charAt(index) == '\\' && index + 1 < format.length()) {
                index++;
            }
            literal.append(format.charAt(index++));
        }
        return index + 1;
    }

    private static Keyword keywordAt(String format, int index) {
        for (Keyword keyword : KEYWORDS) {
            if (format.startsWith(keyword.text(), index)) {
                return keyword;
            }
        }
        return null;
    }

    private static void flush(StringBuilder literal, List<Node> nodes, boolean quoted, boolean fixedFormat) {
        if (!literal.isEmpty()) {
            nodes.add(new Node(Field.LITERAL, null, false, null, literal.toString().getBytes(StandardCharsets.UTF_8), null,
                    quoted, fixedFormat));
            literal.setLength(0);
        }
    }

    /** Appends the timestamp {@code micros} (since 1970-01-01 00:00) formatted by this template. */
    public void format(long micros, ByteBuilder out) {
        long days = Math.floorDiv(micros, DateTimes.MICROS_PER_DAY);
        long timeOfDay = micros - days * DateTimes.MICROS_PER_DAY;
        long civil = DateTimes.civilFromDays(days);
        long year = DateTimes.year(civil);
        int month = DateTimes.month(civil);
        int day = DateTimes.day(civil);
        int hour = (int) (timeOfDay / DateTimes.MICROS_PER_HOUR);
        // Years before 1 are shown as BC years: year 0 is 1 BC.
        long shownYear = year <= 0 ? 1 - year : year;
        for (Node node : nodes) {
            long number;
            int width;
            switch (node.field()) {
                case LITERAL -> {
                    out.append(node.literal(), 0, node.literal().length);
                    continue;
                }
                case MERIDIEM -> {
                    appendSpelled(out, hour >= 12 ? "PM" : "AM", node.spelling());
                    continue;
                }
                case MERIDIEM_DOTS -> {
                    appendSpelled(out, hour >= 12 ? "P.M." : "A.M.", node.spelling());
                    continue;
                }
                case ERA -> {
                    appendSpelled(out, year <= 0 ? "BC" : "AD", node.spelling());
                    continue;
                }
                case ERA_DOTS -> {
                    appendSpelled(out, year <= 0 ? "B.C." : "A.D.", node.spelling());
                    continue;
                }
                case MONTH_NAME -> {
                    appendName(out, MONTHS[month - 1], node, 9);
                    continue;
                }
                case MONTH_ABBREVIATION -> {
                    appendSpelled(out, MONTH_ABBREVIATIONS[month - 1], node.spelling());
                    continue;
                }
                case DAY_NAME -> {
                    appendName(out, DAYS[DateTimes.dayOfWeek(days)], node, 9);
                    continue;
                }
                case DAY_ABBREVIATION -> {
                    appendSpelled(out, DAY_ABBREVIATIONS[DateTimes.dayOfWeek(days)], node.spelling());
                    continue;
                }
                case YEAR_COMMA -> {
                    out.appendPadded(shownYear / 1000, 1);
                    out.append((byte) ',');
                    out.appendPadded(shownYear % 1000, 3);
                    appendOrdinal(out, shownYear, node);
                    continue;
                }
                case HOUR24 -> {
                    number = hour;
                    width = 2;
                }
                case HOUR12 -> {
                    number = hour % 12 == 0 ? 12 : hour % 12;
                    width = 2;
                }
                case MINUTE -> {
                    number = timeOfDay / DateTimes.MICROS_PER_MINUTE % 60;
                    width = 2;
                }
                case SECOND -> {
                    number = timeOfDay / DateTimes.MICROS_PER_SECOND % 60;
                    width = 2;
                }
                case MILLISECOND -> {
                    number = timeOfDay / 1000 % 1000;
                    width = 3;
                }
                case MICROSECOND -> {
                    number = timeOfDay % DateTimes.MICROS_PER_SECOND;
                    width = 6;
                }
                case SECONDS_OF_DAY -> {
                    number = timeOfDay / DateTimes.MICROS_PER_SECOND;
                    width = 1;
                }
                case YEAR4 -> {
                    number = shownYear;
                    width = 4;
                }
                case YEAR3 -> {
                    number = shownYear % 1000;
                    width = 3;
                }
                case YEAR2 -> {
                    number = shownYear % 100;
                    width = 2;
                }
                case YEAR1 -> {
                    number = shownYear % 10;
                    width = 1;
                }
                case ISO_YEAR4, ISO_YEAR3, ISO_YEAR2, ISO_YEAR1 -> {
                    long isoYear = DateTimes.isoYear(days);
                    long shownIsoYear = isoYear <= 0 ? 1 - isoYear : isoYear;
                    width = switch (node.field()) {
                        case ISO_YEAR4 -> 4;
                        case ISO_YEAR3 -> 3;
                        case ISO_YEAR2 -> 2;
                        default -> 1;
                    };
                    number = width == 4 ? shownIsoYear : shownIsoYear % (width == 3 ? 1000 : width == 2 ? 100 : 10);
                }
                case MONTH -> {
                    number = month;
                    width = 2;
                }
                case DAY_OF_YEAR -> {
                    number = DateTimes.dayOfYear(days);
                    width = 3;
                }
                case DAY_OF_MONTH -> {
                    number = day;
                    width = 2;
                }
                case DAY_OF_WEEK -> {
                    number = DateTimes.dayOfWeek(days) + 1;
                    width = 1;
                }
                case ISO_DAY_OF_WEEK -> {
                    int dayOfWeek = DateTimes.dayOfWeek(days);
                    number = dayOfWeek == 0 ? 7 : dayOfWeek;
                    width = 1;
                }
                case ISO_DAY_OF_YEAR -> {
                    int isoDayOfWeek = Math.floorMod(DateTimes.dayOfWeek(days) + 6, 7);
                    number = (DateTimes.isoWeek(days) - 1) * 7L + isoDayOfWeek + 1;
                    width = 3;
                }
                case ISO_WEEK -> {
                    number = DateTimes.isoWeek(days);
                    width = 2;
                }
                case WEEK_OF_YEAR -> {
                    number = (DateTimes.dayOfYear(days) - 1) / 7 + 1;
                    width = 2;
                }
                case WEEK_OF_MONTH -> {
                    number = (day - 1) / 7 + 1;
                    width = 1;
                }
                case QUARTER -> {
                    number = (month - 1) / 3 + 1;
                    width = 1;
                }
                case CENTURY -> {
                    // Century 21 is 2001-2100; before year 1, PostgreSQL counts down from -1.
                    long century = year > 0 ? (year - 1) / 100 + 1 : year / 100 - 1;
                    if (century < 0) {
                        out.append((byte) '-');
                    }
                    number = Math.abs(century);
                    width = 2;
                }
                case JULIAN_DAY -> {
                    number = days + JULIAN_DAY_OF_EPOCH;
                    width = 1;
                }
                default -> throw new IllegalStateException("unhandled template field " + node.field());
            }
            if (number < 0) {
                out.append((byte) '-');
                number = -number;
            }
            out.appendPadded(number, node.fillMode() ? 1 : width);
            appendOrdinal(out, number, node);
        }
    }

    private static void appendName(ByteBuilder out, String name, Node node, int paddedWidth) {
        appendSpelled(out, name, node.spelling());
        if (!node.fillMode()) {
            for (int pad = name.length(); pad < paddedWidth; pad++) {
                out.append((byte) ' ');
            }
        }
    }

    private static void appendSpelled(ByteBuilder out, String text, Spelling spelling) {
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            char spelled = switch (spelling) {
                case UPPER -> Character.toUpperCase(character);
                case LOWER -> Character.toLowerCase(character);
                case CAPITALIZED -> index == 0 ? Character.toUpperCase(character) : Character.toLowerCase(character);
            };
            out.append((byte) spelled);
        }
    }

    /** The TH/th suffix: st, nd, rd or th after the number (th for 11 to 13). */
    private static void appendOrdinal(ByteBuilder out, long number, Node node) {
        if (node.ordinal() == null) {
            return;
        }
        long lastTwo = number % 100;
        long last = number % 10;
        String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
        appendSpelled(out, suffix, node.ordinal());
    }
}
