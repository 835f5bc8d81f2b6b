package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code value AT TIME ZONE zone} becomes {@code timezone(zone, value)}, PostgreSQL's function for the
 * operator (and the name it gives the column); Calcite's grammar has no AT TIME ZONE. The value is the
 * primary expression before {@code AT} (after the {@code ::} casts are rewritten, so
 * {@code x::timestamp at time zone 'UTC'} converts the cast), the zone the one primary after
 * {@code ZONE}: a string, a name, a parenthesised expression or a function call.
 */
final class AtTimeZoneRewrite {
    private AtTimeZoneRewrite() {
    }

    static List<Piece> apply(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int zoneEnd = atTimeZoneEnd(pieces, index);
            int valueStart = zoneEnd < 0 ? -1 : PostgresDialectRewriter.primaryStart(result);
            int zoneStart = zoneEnd < 0 ? -1 : PostgresDialectRewriter.skipSpaces(pieces, zoneEnd);
            if (valueStart < 0 || zoneStart >= pieces.size()) {
                result.add(piece);
                continue;
            }
            int zoneLast = zoneStart;
            if (pieces.get(zoneStart) instanceof Piece.Leaf word && word.token().kind() == Kind.WORD) {
                // A qualified name (t.zone) or a function call (lower(z)).
                while (zoneLast + 2 < pieces.size() && pieces.get(zoneLast + 1) instanceof Piece.Leaf dot
                        && dot.token().kind() == Kind.DOT) {
                    zoneLast += 2;
                }
                if (zoneLast + 1 < pieces.size() && pieces.get(zoneLast + 1) instanceof Piece.Group call
                        && call.open().kind() == Kind.LEFT_PARENTHESIS) {
                    zoneLast++;
                }
            }
            List<Object> parts = new ArrayList<>();
            parts.add("timezone(");
            parts.addAll(pieces.subList(zoneStart, zoneLast + 1));
            parts.add(", ");
            parts.addAll(PostgresDialectRewriter.trimmed(result.subList(valueStart, result.size())));
            parts.add(")");
            int position = ((Piece.Leaf) piece).token().position();
            result.subList(valueStart, result.size()).clear();
            result.add(new Piece.Composite(parts, position));
            index = zoneLast;
        }
        return result;
    }

    /** The index after {@code AT TIME ZONE} starting at {@code index}, or -1. */
    private static int atTimeZoneEnd(List<Piece> pieces, int index) {
        if (!PostgresDialectRewriter.isWord(pieces.get(index), "at")) {
            return -1;
        }
        int at = index + 1;
        for (String word : new String[] {"time", "zone"}) {
            at = PostgresDialectRewriter.skipSpaces(pieces, at);
            if (at >= pieces.size() || !PostgresDialectRewriter.isWord(pieces.get(at), word)) {
                return -1;
            }
            at++;
        }
        return at;
    }
}
