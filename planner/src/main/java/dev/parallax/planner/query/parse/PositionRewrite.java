package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code position((substring) IN string)}: the parentheses around the first operand are dropped.
 * Calcite's grammar reads a parenthesised first operand followed by IN as an IN predicate and fails
 * with a syntax error, and PostgreSQL deparses every operand in parentheses, so pg_dump writes a
 * CHECK constraint {@code position('@' in email) > 1} as {@code (POSITION(('@'::text) IN (email)) > 1)}.
 * The operand is the whole text before IN, so its outer parentheses change nothing.
 */
final class PositionRewrite {
    private PositionRewrite() {
    }

    static List<Piece> apply(List<Piece> pieces) {
        List<Piece> result = null;
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int arguments = PostgresDialectRewriter.skipSpaces(pieces, index + 1);
            if (PostgresDialectRewriter.isWord(piece, "position") && arguments < pieces.size()
                    && pieces.get(arguments) instanceof Piece.Group call && call.open().kind() == Kind.LEFT_PARENTHESIS) {
                List<Piece> children = unwrapFirstOperand(call.children());
                if (children != call.children()) {
                    if (result == null) {
                        result = new ArrayList<>(pieces);
                    }
                    result.set(arguments, new Piece.Group(call.open(), children, call.close()));
                }
            }
        }
        return result == null ? pieces : result;
    }

    /** The arguments with the first operand's outer parentheses removed, or {@code children} itself when it has none. */
    private static List<Piece> unwrapFirstOperand(List<Piece> children) {
        int first = PostgresDialectRewriter.skipSpaces(children, 0);
        int in = PostgresDialectRewriter.skipSpaces(children, first + 1);
        if (in >= children.size() || !PostgresDialectRewriter.isWord(children.get(in), "in")
                || !(children.get(first) instanceof Piece.Group operand) || operand.open().kind() != Kind.LEFT_PARENTHESIS) {
            return children;
        }
        List<Piece> inner = operand.children();
        // ((('@'))) in s: unwrap while the operand is one parenthesised group.
        int start = PostgresDialectRewriter.skipSpaces(inner, 0);
        while (start == inner.size() - 1 && inner.get(start) instanceof Piece.Group nested && nested.open().kind() == Kind.LEFT_PARENTHESIS) {
            inner = nested.children();
            start = PostgresDialectRewriter.skipSpaces(inner, 0);
        }
        List<Piece> unwrapped = new ArrayList<>(children.size() + inner.size());
        unwrapped.addAll(children.subList(0, first));
        unwrapped.addAll(inner);
        unwrapped.addAll(children.subList(first + 1, children.size()));
        return unwrapped;
    }
}
