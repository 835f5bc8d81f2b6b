package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;
import dev.parallax.planner.query.validate.GroupsFrameMarker;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's GROUPS frames, which Calcite's grammar lacks, written as ROWS frames whose every
 * bound carries its offset in a {@code pg_groups_offset(...)} call: {@code GROUPS BETWEEN 1
 * PRECEDING AND CURRENT ROW} becomes {@code ROWS BETWEEN pg_groups_offset(1) PRECEDING AND
 * pg_groups_offset(0) FOLLOWING}, UNBOUNDED {@code pg_groups_offset()}, a single bound ends at
 * {@code pg_groups_offset(0) FOLLOWING} (the current row's last peer). The validator
 * ({@code WindowFrameBounds}) checks these bounds as PostgreSQL checks a GROUPS frame's and turns
 * them into the constants the planner reads as GROUPS. A frame whose bounds are in an order
 * PostgreSQL's grammar refuses keeps them as written (as ROWS), so that the validator reports it
 * with PostgreSQL's words.
 */
final class GroupsFrameRewrite {
    private static final String OFFSET_FUNCTION = GroupsFrameMarker.OFFSET_FUNCTION;

    private GroupsFrameRewrite() {
    }

    /** The pieces of one level with each {@code GROUPS} frame rewritten. */
    static List<Piece> apply(List<Piece> pieces) {
        List<Piece> result = null;
        for (int index = 0; index < pieces.size(); index++) {
            if (!(pieces.get(index) instanceof Piece.Leaf leaf) || !leaf.token().isWord("groups") || !startsFrame(pieces, index + 1)) {
                if (result != null) {
                    result.add(pieces.get(index));
                }
                continue;
            }
            List<Piece> rewritten = result == null ? new ArrayList<>(pieces.subList(0, index)) : result;
            int last = rewriteFrame(pieces, index, leaf.token(), rewritten);
            if (last < 0) {
                // Not a frame's bounds (a column named groups: where groups between 1 and 5).
                if (result != null) {
                    result.add(pieces.get(index));
                }
                continue;
            }
            result = rewritten;
            index = last;
        }
        return result == null ? pieces : result;
    }

    /** Whether the pieces from {@code index} start a frame extent: BETWEEN, UNBOUNDED, CURRENT or an offset. */
    private static boolean startsFrame(List<Piece> pieces, int index) {
        int next = nextNonSpace(pieces, index);
        if (next >= pieces.size() || !(pieces.get(next) instanceof Piece.Leaf leaf)) {
            return next < pieces.size() && boundEnd(pieces, next) >= 0;
        }
        SqlToken token = leaf.token();
        return token.isWord("between") || token.isWord("unbounded") || token.isWord("current") || boundEnd(pieces, next) >= 0;
    }

    /**
     * Rewrites the frame whose GROUPS word is at {@code index} into {@code result} and returns the
     * index of its last piece; -1 (and nothing added) when the words after GROUPS are no frame's bounds.
     */
    private static int rewriteFrame(List<Piece> pieces, int index, SqlToken groups, List<Piece> result) {
        int start = nextNonSpace(pieces, index + 1);
        boolean between = pieces.get(start) instanceof Piece.Leaf leaf && leaf.token().isWord("between");
        int lowerStart = between ? nextNonSpace(pieces, start + 1) : start;
        int lowerEnd = boundEnd(pieces, lowerStart);
        int upperStart = -1;
        int upperEnd = -1;
        if (between && lowerEnd >= 0) {
            int and = nextNonSpace(pieces, lowerEnd + 1);
            if (and < pieces.size() && pieces.get(and) instanceof Piece.Leaf leaf && leaf.token().isWord("and")) {
                upperStart = nextNonSpace(pieces, and + 1);
                upperEnd = boundEnd(pieces, upperStart);
            }
        }
        if (lowerEnd < 0 || between && upperEnd < 0) {
            return -1;
        }
        Bound lower = bound(pieces, lowerStart, lowerEnd);
        Bound upper = between ? bound(pieces, upperStart, upperEnd) : null;
        boolean valid = between ? ordered(lower, upper) : lower.kind != BoundKind.UNBOUNDED_FOLLOWING && lower.kind != BoundKind.OFFSET_FOLLOWING;
        List<Object> parts = new ArrayList<>();
        parts.add("rows");
        if (!valid) {
            // Left as written for the validator's (or the parser's) error.
            result.add(new Piece.Composite(parts, groups.position()));
            return index;
        }
        parts.add(" between ");
        addBound(parts, pieces, lower, true);
        parts.add(" and ");
        if (upper == null) {
            parts.add(OFFSET_FUNCTION + "(0) following");
        } else {
            addBound(parts, pieces, upper, false);
        }
        result.add(new Piece.Composite(parts, groups.position()));
        return between ? upperEnd : lowerEnd;
    }

    private enum BoundKind { UNBOUNDED_PRECEDING, OFFSET_PRECEDING, CURRENT_ROW, OFFSET_FOLLOWING, UNBOUNDED_FOLLOWING }

    /** A bound: its kind and, for an offset, the pieces of its expression. */
    private record Bound(BoundKind kind, int offsetStart, int offsetEnd) {
    }

    /** Whether PostgreSQL's grammar takes a frame from {@code lower} to {@code upper}. */
    private static boolean ordered(Bound lower, Bound upper) {
        if (lower.kind == BoundKind.UNBOUNDED_FOLLOWING || upper.kind == BoundKind.UNBOUNDED_PRECEDING) {
            return false;
        }
        if (lower.kind == BoundKind.CURRENT_ROW && upper.kind == BoundKind.OFFSET_PRECEDING) {
            return false;
        }
        return lower.kind != BoundKind.OFFSET_FOLLOWING || upper.kind == BoundKind.OFFSET_FOLLOWING || upper.kind == BoundKind.UNBOUNDED_FOLLOWING;
    }

    private static void addBound(List<Object> parts, List<Piece> pieces, Bound bound, boolean start) {
        switch (bound.kind) {
            case UNBOUNDED_PRECEDING -> parts.add(OFFSET_FUNCTION + "() preceding");
            case UNBOUNDED_FOLLOWING -> parts.add(OFFSET_FUNCTION + "() following");
            case CURRENT_ROW -> parts.add(OFFSET_FUNCTION + (start ? "(0) preceding" : "(0) following"));
            case OFFSET_PRECEDING, OFFSET_FOLLOWING -> {
                parts.add(OFFSET_FUNCTION + "(");
                parts.addAll(pieces.subList(bound.offsetStart, bound.offsetEnd));
                parts.add(bound.kind == BoundKind.OFFSET_PRECEDING ? ") preceding" : ") following");
            }
        }
    }

    /** The bound whose pieces are {@code start .. end}: its last piece is PRECEDING, FOLLOWING or ROW. */
    private static Bound bound(List<Piece> pieces, int start, int end) {
        Piece first = pieces.get(start);
        boolean preceding = pieces.get(end) instanceof Piece.Leaf last && last.token().isWord("preceding");
        if (first instanceof Piece.Leaf leaf && leaf.token().isWord("unbounded") && nextNonSpace(pieces, start + 1) == end) {
            return new Bound(preceding ? BoundKind.UNBOUNDED_PRECEDING : BoundKind.UNBOUNDED_FOLLOWING, -1, -1);
        }
        if (first instanceof Piece.Leaf leaf && leaf.token().isWord("current")) {
            return new Bound(BoundKind.CURRENT_ROW, -1, -1);
        }
        int offsetEnd = end;
        while (offsetEnd > start && pieces.get(offsetEnd - 1) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.SPACE) {
            offsetEnd--;
        }
        return new Bound(preceding ? BoundKind.OFFSET_PRECEDING : BoundKind.OFFSET_FOLLOWING, start, offsetEnd);
    }

    /**
     * The index of the PRECEDING, FOLLOWING or (after CURRENT) ROW word that ends the bound starting
     * at {@code start}, or -1 when none comes before the frame's end.
     */
    private static int boundEnd(List<Piece> pieces, int start) {
        if (start >= pieces.size()) {
            return -1;
        }
        boolean current = pieces.get(start) instanceof Piece.Leaf leaf && leaf.token().isWord("current");
        for (int index = start; index < pieces.size(); index++) {
            if (!(pieces.get(index) instanceof Piece.Leaf leaf)) {
                continue;
            }
            SqlToken token = leaf.token();
            if (current ? token.isWord("row") : token.isWord("preceding") || token.isWord("following")) {
                return index;
            }
            if (token.isWord("and") || token.isWord("between") || token.isWord("exclude") || token.isWord("rows") || token.isWord("range")
                    || token.isWord("groups") || token.kind() == Kind.COMMA || token.kind() == Kind.SEMICOLON) {
                return -1;
            }
        }
        return -1;
    }

    private static int nextNonSpace(List<Piece> pieces, int index) {
        while (index < pieces.size() && pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.SPACE) {
            index++;
        }
        return index;
    }
}
