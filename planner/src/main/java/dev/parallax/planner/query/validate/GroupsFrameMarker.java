package dev.parallax.planner.query.validate;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Locale;

/**
 * How a GROUPS frame's bounds reach the planner: Calcite knows ROWS and RANGE only, so a GROUPS
 * frame is planned as a ROWS frame whose offsets are string constants {@code 'GROUPS n'} (n peer
 * groups) or {@code 'GROUPS UNBOUNDED'}, written by {@link WindowFrameBounds} once it has checked
 * the bounds as PostgreSQL checks them (the dialect rewrite marks them {@code pg_groups_offset(...)}).
 * A ROWS frame's own quoted offsets are read as bigints first ({@code WindowFrameBounds}), so only
 * a ROWS offset written as the marker's own text {@code 'GROUPS 1'} would be taken for one (PostgreSQL
 * fails it with 22P02). Being constants, the offsets stay in the window's constants through
 * Calcite's rules, and a GROUPS window is never merged with a ROWS one.
 */
public final class GroupsFrameMarker {
    /** The function the dialect rewrite wraps a GROUPS bound's offset in (no argument: UNBOUNDED). */
    public static final String OFFSET_FUNCTION = "pg_groups_offset";
    private static final String PREFIX = "GROUPS ";
    private static final String UNBOUNDED = "UNBOUNDED";

    private GroupsFrameMarker() {
    }

    /** The constant of a bound {@code groups} peer groups from the current row's (null: UNBOUNDED). */
    static SqlLiteral literal(Long groups, SqlParserPos position) {
        return SqlLiteral.createCharString(PREFIX + (groups == null ? UNBOUNDED : groups.toString()), position);
    }

    /** Whether {@code text} is a GROUPS bound's constant. */
    public static boolean isMarker(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    /** The peer groups of a GROUPS bound's constant, null for UNBOUNDED. */
    public static Long groups(String text) {
        String value = text.substring(PREFIX.length()).trim().toUpperCase(Locale.ROOT);
        return value.equals(UNBOUNDED) ? null : Long.valueOf(value);
    }
}
