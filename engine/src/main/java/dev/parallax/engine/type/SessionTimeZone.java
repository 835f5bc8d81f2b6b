package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time zone as PostgreSQL's {@code TimeZone} setting and {@code AT TIME ZONE} name it: an IANA zone
 * (matched without regard to case and shown in the database's spelling, {@code europe/paris} is
 * {@code Europe/Paris}), a POSIX offset ({@code UTC+3} and {@code +05:30} are hours <em>west</em> of
 * Greenwich, as POSIX counts), or a number of hours east ({@code SET TIME ZONE 5}, shown as
 * {@code <+05>-05}). It converts between a timestamp with time zone (UTC microseconds since
 * 1970-01-01) and the local time it reads as (a timestamp without time zone).
 * <p>
 * A local time a transition skips (a spring-forward gap) is read with the offset before the
 * transition and one that occurs twice (fall-back) with the offset after it, as PostgreSQL's
 * DetermineTimeZoneOffset does: {@code 2024-03-31 02:30 Europe/Paris} is 03:30+02, and
 * {@code 2024-10-27 02:30} there is 02:30+01. Immutable; one per session's setting value.
 */
public final class SessionTimeZone {
    /** The default TimeZone setting of a Parallax session (PostgreSQL's is the server's; ours does not depend on the host). */
    public static final SessionTimeZone UTC = new SessionTimeZone("UTC", ZoneOffset.UTC);

    /** Zone names of the JDK's tz database by lower case, for PostgreSQL's case-insensitive lookup. */
    private static final Map<String, String> ZONE_NAMES = zoneNames();
    /** {@code UTC+3}, {@code <+05>-05}, {@code +05:30}: POSIX's offset west of Greenwich after an optional name. */
    private static final Pattern POSIX_OFFSET = Pattern.compile("(<[^>]*>|[A-Za-z]{3,})?([+-]?)(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?");
    /** Zones by setting text: every statement's expressions read the session's (bounded: a client may set many). */
    private static final Map<String, SessionTimeZone> SETTINGS = new java.util.concurrent.ConcurrentHashMap<>();
    /** Zones by the name a timestamp's text or AT TIME ZONE gives, which a column of zone names looks up per row. */
    private static final Map<String, SessionTimeZone> NAMES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Pattern HOURS_EAST = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

    private final String name;
    private final ZoneRules rules;
    /** The zone's one offset in seconds when it has no transitions (UTC, POSIX offsets): no rule lookup per value. */
    private final int fixedOffsetSeconds;
    private final boolean fixed;

    private SessionTimeZone(String name, ZoneId zone) {
        this.name = name;
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffsetSeconds = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
    }

    /**
     * The zone a TimeZone setting's text names, or 22023 invalid value for parameter "TimeZone" as
     * PostgreSQL's check_timezone reports a name it does not know.
     */
    public static SessionTimeZone ofSetting(String text) {
        return cached(SETTINGS, text, true, "invalid value for parameter \"TimeZone\": \"%s\"");
    }

    /**
     * The zone a timestamp's text or {@code AT TIME ZONE} names (no bare number of hours there), or
     * 22023 time zone "x" not recognized as PostgreSQL reports it.
     */
    public static SessionTimeZone named(String text) {
        return cached(NAMES, text, false, "time zone \"%s\" not recognized");
    }

    /** The zone {@code text} names, from {@code cache} when seen before; 22023 with {@code unknown}'s message otherwise. */
    private static SessionTimeZone cached(Map<String, SessionTimeZone> cache, String text, boolean setting, String unknown) {
        SessionTimeZone known = cache.get(text);
        if (known != null) {
            return known;
        }
        SessionTimeZone zone = find(text.strip(), setting);
        if (zone == null) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, unknown, text.strip());
        }
        if (cache.size() < 1024) {
            cache.put(text, zone);
        }
        return zone;
    }

    /** A zone {@code offsetSeconds} east of Greenwich, named as PostgreSQL shows one set by a number or an interval. */
    public static SessionTimeZone ofOffsetEast(int offsetSeconds) {
        if (Math.abs(offsetSeconds) > 15 * 3600 + 59 * 60 + 59) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"TimeZone\": \"%s\"", offsetSeconds);
        }
        StringBuilder offset = new StringBuilder();
        appendOffset(offset, offsetSeconds);
        StringBuilder west = new StringBuilder();
        appendOffset(west, -offsetSeconds);
        return new SessionTimeZone("<" + offset + ">" + west, ZoneOffset.ofTotalSeconds(offsetSeconds));
    }

    private static SessionTimeZone find(String text, boolean setting) {
        String canonical = ZONE_NAMES.get(text.toLowerCase(Locale.ROOT));
        if (canonical != null) {
            return new SessionTimeZone(canonical, ZoneId.of(canonical));
        }
        if (setting && HOURS_EAST.matcher(text).matches()) {
            double hours = Double.parseDouble(text);
            if (Math.abs(hours) > 15) {
                return null;
            }
            return ofOffsetEast((int) Math.round(hours * 3600));
        }
        Matcher posix = POSIX_OFFSET.matcher(text);
        if (posix.matches()) {
            int hours = Integer.parseInt(posix.group(3));
            int minutes = posix.group(4) == null ? 0 : Integer.parseInt(posix.group(4));
            int seconds = posix.group(5) == null ? 0 : Integer.parseInt(posix.group(5));
            if (hours > 15 || minutes > 59 || seconds > 59) {
                return null;
            }
            int west = hours * 3600 + minutes * 60 + seconds;
            int east = posix.group(2).equals("-") ? west : -west;
            return new SessionTimeZone(text, ZoneOffset.ofTotalSeconds(east));
        }
        return null;
    }

    private static Map<String, String> zoneNames() {
        Map<String, String> names = new HashMap<>();
        for (String zone : ZoneId.getAvailableZoneIds()) {
            names.put(zone.toLowerCase(Locale.ROOT), zone);
        }
        return names;
    }

    /**
     * The zone a series of {@code type} adds month steps in: the session's (from {@code settings}) for a
     * timestamp with time zone, UTC (the local time itself) for a timestamp.
     */
    public static SessionTimeZone ofMonthSteps(DataType type, dev.parallax.engine.settings.Settings settings) {
        return type.kind() == TypeKind.TIMESTAMPTZ ? ofSetting(settings.show("TimeZone")) : UTC;
    }

    /** Whether values of {@code type} are read or printed in the session's zone: timestamptz, and arrays of it. */
    public static boolean appliesTo(DataType type) {
        return type.kind() == TypeKind.TIMESTAMPTZ || type.kind() == TypeKind.ARRAY && type.element().kind() == TypeKind.TIMESTAMPTZ;
    }

    /** How SHOW TimeZone prints this zone. */
    public String name() {
        return name;
    }

    /** Seconds east of Greenwich in effect at {@code utcMicros}. */
    public int offsetSeconds(long utcMicros) {
        if (fixed) {
            return fixedOffsetSeconds;
        }
        return rules.getOffset(Instant.ofEpochSecond(Math.floorDiv(utcMicros, DateTimes.MICROS_PER_SECOND))).getTotalSeconds();
    }

    /** The local time (a timestamp without time zone) that {@code utcMicros} reads as in this zone. */
    public long toLocal(long utcMicros) {
        return utcMicros + offsetSeconds(utcMicros) * DateTimes.MICROS_PER_SECOND;
    }

    /** The instant the local time {@code localMicros} names in this zone, with PostgreSQL's choice in gaps and overlaps. */
    public long toUtc(long localMicros) {
        return localMicros - localOffsetSeconds(localMicros) * DateTimes.MICROS_PER_SECOND;
    }

    /**
     * {@code micros} plus {@code months} calendar months in this zone's local time (the day clamped to the
     * month's end), as PostgreSQL adds a month interval to a timestamp with time zone. In UTC it is
     * DateTimes.addMonthsToTimestamp itself, which a timestamp without time zone adds.
     */
    public long addMonths(long micros, long months) {
        return toUtc(DateTimes.addMonthsToTimestamp(toLocal(micros), months));
    }

    /** The offset that applies to the local time {@code localMicros}: the later one in an overlap, the earlier one in a gap. */
    public int localOffsetSeconds(long localMicros) {
        if (fixed) {
            return fixedOffsetSeconds;
        }
        long seconds = Math.floorDiv(localMicros, DateTimes.MICROS_PER_SECOND);
        LocalDateTime local = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition == null) {
            return rules.getValidOffsets(local).getFirst().getTotalSeconds();
        }
        return transition.isGap() ? transition.getOffsetBefore().getTotalSeconds() : transition.getOffsetAfter().getTotalSeconds();
    }

    /**
     * Appends an offset as PostgreSQL prints a timestamp with time zone's: {@code +02}, {@code -03:30},
     * {@code +00:19:32} (minutes and seconds only when not zero).
     */
    public static void appendOffset(StringBuilder out, int offsetSeconds) {
        int magnitude = Math.abs(offsetSeconds);
        out.append(offsetSeconds < 0 ? '-' : '+');
        DateTimes.appendPadded(out, magnitude / 3600, 2);
        int minutes = magnitude / 60 % 60;
        int seconds = magnitude % 60;
        if (minutes != 0 || seconds != 0) {
            out.append(':');
            DateTimes.appendPadded(out, minutes, 2);
            if (seconds != 0) {
                out.append(':');
                DateTimes.appendPadded(out, seconds, 2);
            }
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SessionTimeZone zone && zone.name.equals(name) && zone.rules.equals(rules);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
