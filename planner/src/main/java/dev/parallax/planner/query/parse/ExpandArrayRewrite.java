package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.parallax.planner.query.parse.PostgresDialectRewriter.isDot;
import static dev.parallax.planner.query.parse.PostgresDialectRewriter.isSpace;
import static dev.parallax.planner.query.parse.PostgresDialectRewriter.isWord;
import static dev.parallax.planner.query.parse.PostgresDialectRewriter.skipSpaces;

/**
 * {@code information_schema._pg_expandarray(a)}, the set-returning function pgJDBC's
 * getPrimaryKeys and getIndexInfo call in a select list, returns rows {@code (x, n)}: each
 * element and its 1-based position. A SELECT calling it (all calls on the same array, as pgJDBC
 * does; PostgreSQL runs such calls in lockstep) gets {@code CROSS JOIN unnest(a) WITH ORDINALITY
 * AS pg_expanded (x, n)} after its FROM items; {@code (_pg_expandarray(a)).n} and {@code .x}
 * become {@code pg_expanded.n} and {@code pg_expanded.x}, a bare call (the whole composite)
 * becomes {@code pg_expanded.x}, and an outer query's {@code (q.alias).x} of a column so defined
 * becomes {@code q.alias}. Parallax has no composite values; this covers the composite's uses
 * that clients write.
 */
final class ExpandArrayRewrite {
    private static final String FUNCTION = "_pg_expandarray";
    private static final String ALIAS = "pg_expanded";
    private static final Set<String> AFTER_FROM = Set.of("where", "group", "having", "order", "limit", "offset", "fetch",
            "union", "except", "intersect", "window");

    private final Set<String> compositeAliases = new HashSet<>();

    private ExpandArrayRewrite() {
    }

    /** The pieces with every use of _pg_expandarray rewritten; the pieces themselves when there is none. */
    static List<Piece> apply(List<Piece> pieces) {
        ExpandArrayRewrite rewrite = new ExpandArrayRewrite();
        if (!rewrite.collect(pieces)) {
            return pieces;
        }
        return rewrite.rewrite(pieces);
    }

    /** Finds the aliases of bare calls ({@code _pg_expandarray(a) AS keys}); true when any call exists. */
    private boolean collect(List<Piece> pieces) {
        boolean found = false;
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (piece instanceof Piece.Group group) {
                found |= collect(group.children());
            } else if (isWord(piece, FUNCTION)) {
                found = true;
                int next = skipSpaces(pieces, index + 1);
                if (next < pieces.size() && pieces.get(next) instanceof Piece.Group) {
                    int alias = skipSpaces(pieces, next + 1);
                    if (alias < pieces.size() && isWord(pieces.get(alias), "as")) {
                        alias = skipSpaces(pieces, alias + 1);
                    }
                    if (alias < pieces.size() && pieces.get(alias) instanceof Piece.Leaf name && name.token().kind() == Kind.WORD) {
                        compositeAliases.add(name.token().lowerText());
                    }
                }
            }
        }
        return found;
    }

    private List<Piece> rewrite(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        Piece.Group expanded = null;
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int dot = skipSpaces(pieces, index + 1);
            int field = skipSpaces(pieces, dot + 1);
            boolean fieldFollows = field < pieces.size() && isDot(pieces.get(dot))
                    && (isWord(pieces.get(field), "x") || isWord(pieces.get(field), "n"));
            if (piece instanceof Piece.Group group && group.open().kind() == Kind.LEFT_PARENTHESIS && fieldFollows) {
                Piece.Group call = call(group.children(), skipSpaces(group.children(), 0));
                if (call != null) {
                    // (_pg_expandarray(a)).n
                    expanded = call;
                    String name = ((Piece.Leaf) pieces.get(field)).token().lowerText();
                    result.add(new Piece.Composite(List.of(ALIAS + "." + name), group.open().position()));
                    index = field;
                    continue;
                }
                String alias = qualifiedCompositeAlias(group.children());
                if (alias != null && isWord(pieces.get(field), "x")) {
                    // (q.keys).x: the column holds x itself (its pieces stay visible to the later passes).
                    result.addAll(group.children());
                    index = field;
                    continue;
                }
            }
            if (piece instanceof Piece.Group group) {
                result.add(new Piece.Group(group.open(), rewrite(group.children()), group.close()));
                continue;
            }
            Piece.Group call = call(pieces, index);
            if (call != null) {
                expanded = call;
                int callEnd = skipSpaces(pieces, skipQualifier(pieces, index) + 1);
                result.add(new Piece.Composite(List.of(ALIAS + ".x"), ((Piece.Leaf) piece).token().position()));
                index = callEnd;
                continue;
            }
            result.add(piece);
        }
        if (expanded == null) {
            return result;
        }
        return withExpansionJoin(result, expanded);
    }

    /** The argument group of a call to _pg_expandarray starting at {@code start} (qualified or not), or null. */
    private static Piece.Group call(List<Piece> pieces, int start) {
        int name = skipQualifier(pieces, start);
        if (name >= pieces.size() || !isWord(pieces.get(name), FUNCTION)) {
            return null;
        }
        int arguments = skipSpaces(pieces, name + 1);
        if (arguments < pieces.size() && pieces.get(arguments) instanceof Piece.Group group
                && group.open().kind() == Kind.LEFT_PARENTHESIS) {
            return group;
        }
        return null;
    }

    /** The index of the function name after an optional {@code information_schema.} at {@code index}. */
    private static int skipQualifier(List<Piece> pieces, int index) {
        if (index + 2 < pieces.size() && isWord(pieces.get(index), "information_schema") && isDot(pieces.get(index + 1))) {
            return index + 2;
        }
        return index;
    }

    /** {@code q.alias} (or {@code alias}) naming a column defined by a bare _pg_expandarray call: the alias, or null. */
    private String qualifiedCompositeAlias(List<Piece> children) {
        List<Piece> words = new ArrayList<>();
        for (Piece child : children) {
            if (!isSpace(child)) {
                words.add(child);
            }
        }
        Piece last = words.isEmpty() ? null : words.getLast();
        boolean shape = words.size() == 1 || words.size() == 3 && isDot(words.get(1));
        if (shape && last instanceof Piece.Leaf name && name.token().kind() == Kind.WORD
                && compositeAliases.contains(name.token().lowerText())) {
            return name.token().lowerText();
        }
        return null;
    }

    /** Inserts the lateral unnest after the FROM items of the SELECT in {@code pieces}. */
    private static List<Piece> withExpansionJoin(List<Piece> pieces, Piece.Group array) {
        int from = -1;
        for (int index = 0; index < pieces.size(); index++) {
            if (isWord(pieces.get(index), "from")) {
                from = index;
                break;
            }
        }
        if (from < 0) {
            return pieces;
        }
        int end = pieces.size();
        for (int index = from + 1; index < pieces.size(); index++) {
            if (pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.WORD
                    && AFTER_FROM.contains(leaf.token().lowerText())) {
                end = index;
                break;
            }
        }
        List<Piece> result = new ArrayList<>(pieces.subList(0, end));
        int position = end < pieces.size() && pieces.get(end) instanceof Piece.Leaf leaf ? leaf.token().position()
                : array.close().position();
        result.add(new Piece.Composite(List.of(" CROSS JOIN unnest", array, " WITH ORDINALITY AS " + ALIAS + " (x, n) "), position));
        result.addAll(pieces.subList(end, pieces.size()));
        return result;
    }
}
