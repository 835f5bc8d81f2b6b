package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.parallax.planner.query.parse.PostgresDialectRewriter.isSpace;
import static dev.parallax.planner.query.parse.PostgresDialectRewriter.isWord;
import static dev.parallax.planner.query.parse.PostgresDialectRewriter.skipSpaces;

/**
 * PostgreSQL's aliases of joins, which Calcite's grammar refuses ("Join expression encountered in
 * illegal context", CALCITE-5168):
 * <ul>
 *   <li>a parenthesised join with an alias, {@code (a join b using (k)) [as] j [(c1, c2, ...)]},
 *       becomes the derived table {@code (select all * from a join b using (k)) as j [(c1, ...)]}:
 *       PostgreSQL's join alias hides the tables inside it and shows the join's columns in
 *       {@code *}'s order under the alias, as such a derived table does. The {@code all}
 *       ({@link #JOIN_ALIAS_KEYWORD}) marks it, so the validator applies the rules where a join
 *       alias differs from a subquery (a column alias list may name fewer columns; a reference to a
 *       hidden table is "invalid reference to FROM-clause entry");</li>
 *   <li>the alias of a USING clause, {@code a join b using (k) as u} (PostgreSQL 14), which names
 *       only the merged columns, travels as a last quoted name {@code "pg_using_alias u"} in the
 *       USING list ({@link #USING_ALIAS_MARKER}), taken out again by the validator.</li>
 * </ul>
 * A parenthesised join without an alias ({@code a join (b join c using (k)) on ...}) stays as
 * written: Calcite's grammar takes it.
 */
public final class JoinAliasRewrite {
    /** The keyword the derived table of a join alias is written with ({@code select all *}), which marks it. */
    public static final String JOIN_ALIAS_KEYWORD = "all";
    /** The prefix of the quoted name that carries a USING clause's alias in the USING list. */
    public static final String USING_ALIAS_MARKER = "pg_using_alias ";
    /**
     * Words that may follow a FROM item without being its alias: PostgreSQL takes an alias without
     * AS only where the word is not reserved, and these are.
     */
    private static final Set<String> NOT_ALIASES = Set.of("on", "using", "join", "inner", "left", "right", "full", "outer",
            "cross", "natural", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "union", "except",
            "intersect", "for", "returning", "tablesample", "set", "select", "from", "with", "values", "as", "lateral",
            "into", "and", "or", "then", "else", "end", "when");
    /** First words of a parenthesised query, which is no join even when a join is nested in it. */
    private static final Set<String> QUERY_WORDS = Set.of("select", "with", "values", "table");

    private JoinAliasRewrite() {
    }

    /** The pieces with join aliases and USING aliases rewritten; the pieces themselves when there is none. */
    static List<Piece> apply(List<Piece> pieces) {
        return hasJoin(pieces) ? rewrite(pieces) : pieces;
    }

    private static boolean hasJoin(List<Piece> pieces) {
        for (Piece piece : pieces) {
            if (piece instanceof Piece.Group group ? hasJoin(group.children()) : isWord(piece, "join")) {
                return true;
            }
        }
        return false;
    }

    private static List<Piece> rewrite(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (piece instanceof Piece.Group group && group.open().kind() == Kind.LEFT_PARENTHESIS) {
                List<Piece> children = rewrite(group.children());
                int before = previousNonSpace(result);
                boolean usingList = before >= 0 && isWord(result.get(before), "using") && isNameList(children);
                int alias = aliasAfter(pieces, index + 1, usingList);
                if (usingList && alias >= 0) {
                    // a join b using (k) as u: the alias goes into the list; AS and the name are dropped.
                    Piece.Leaf name = (Piece.Leaf) pieces.get(alias);
                    children.add(new Piece.Composite(List.of(", " + quoted(USING_ALIAS_MARKER + identifier(name.token()))),
                            name.token().position()));
                    result.add(new Piece.Group(group.open(), children, group.close()));
                    index = alias;
                    continue;
                }
                if (isJoin(children) && alias >= 0) {
                    children.addFirst(new Piece.Composite(List.of("select " + JOIN_ALIAS_KEYWORD + " * from "), group.open().position()));
                }
                result.add(new Piece.Group(group.open(), children, group.close()));
                continue;
            }
            result.add(piece);
        }
        return result;
    }

    /**
     * The index of the alias that follows the FROM item ending before {@code start}, or -1: after AS
     * any name ({@code as u}); without AS a name that is not a keyword following FROM items. A USING
     * clause takes its alias only after AS.
     */
    private static int aliasAfter(List<Piece> pieces, int start, boolean asRequired) {
        int next = skipSpaces(pieces, start);
        if (next >= pieces.size()) {
            return -1;
        }
        if (isWord(pieces.get(next), "as")) {
            int name = skipSpaces(pieces, next + 1);
            return name < pieces.size() && isName(pieces.get(name)) ? name : -1;
        }
        if (asRequired || !isName(pieces.get(next))) {
            return -1;
        }
        Piece.Leaf leaf = (Piece.Leaf) pieces.get(next);
        return leaf.token().kind() == Kind.QUOTED_IDENTIFIER || !NOT_ALIASES.contains(leaf.token().lowerText()) ? next : -1;
    }

    /** Whether a parenthesised group's children are a join: a JOIN at their top level, and no query word first. */
    private static boolean isJoin(List<Piece> children) {
        int first = skipSpaces(children, 0);
        if (first >= children.size()) {
            return false;
        }
        for (String word : QUERY_WORDS) {
            if (isWord(children.get(first), word)) {
                return false;
            }
        }
        for (Piece child : children) {
            if (isWord(child, "join")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the children are names and commas only (a USING list; DELETE ... USING takes a table). */
    private static boolean isNameList(List<Piece> children) {
        for (Piece child : children) {
            if (!isSpace(child) && !isName(child) && !(child instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.COMMA)) {
                return false;
            }
        }
        return true;
    }

    /** A name as PostgreSQL folds it: an unquoted one to lower case, a quoted one as written. */
    private static String identifier(SqlToken token) {
        if (token.kind() == Kind.QUOTED_IDENTIFIER) {
            return token.text().substring(1, token.text().length() - 1).replace("\"\"", "\"");
        }
        return token.text().toLowerCase(Locale.ROOT);
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static boolean isName(Piece piece) {
        return piece instanceof Piece.Leaf leaf && (leaf.token().kind() == Kind.WORD || leaf.token().kind() == Kind.QUOTED_IDENTIFIER);
    }

    private static int previousNonSpace(List<Piece> pieces) {
        int index = pieces.size() - 1;
        while (index >= 0 && isSpace(pieces.get(index))) {
            index--;
        }
        return index;
    }
}
