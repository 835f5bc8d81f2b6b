package dev.parallax.planner.query.parse;

import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.ValueText;

/**
 * PostgreSQL's typed literals {@code timestamp '...'} and {@code date '...'} in the forms its input
 * functions read ({@code '2024-01-01 10:30'}, {@code '2024-01-01T10:30:00'}, {@code '2024-1-5'},
 * {@code timestamp '2024-01-01'}) turned into the one form Calcite's parser takes
 * ({@code yyyy-MM-dd HH:mm:ss[.ffffff]}, {@code yyyy-MM-dd}); text the engine's input functions
 * refuse fails with their error (22007, 22008), as PostgreSQL's does.
 */
final class PostgresDateTimeLiteralText {
    private PostgresDateTimeLiteralText() {
    }

    /**
     * The Calcite literal for {@code type} ({@code timestamp} or {@code date}) and the body of its
     * quoted text (without quotes), or null to leave the literal as written: a year before 1
     * (Calcite's literals have no BC).
     */
    static String toSqlLiteral(String type, String body) {
        StringBuilder literal = new StringBuilder();
        if (type.equals("timestamp")) {
            long micros = ValueText.parseTimestamp(body);
            if (DateTimes.year(DateTimes.civilFromDays(Math.floorDiv(micros, DateTimes.MICROS_PER_DAY))) < 1) {
                return null;
            }
            literal.append("TIMESTAMP '");
            DateTimes.appendTimestamp(literal, micros);
        } else {
            long days = ValueText.parseDate(body);
            if (DateTimes.year(DateTimes.civilFromDays(days)) < 1) {
                return null;
            }
            literal.append("DATE '");
            DateTimes.appendDate(literal, days);
        }
        return literal.append('\'').toString();
    }
}
