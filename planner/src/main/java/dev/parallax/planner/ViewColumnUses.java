package dev.parallax.planner;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.View;
import dev.parallax.planner.statement.SqlLexer;
import dev.parallax.planner.statement.Token;
import dev.parallax.planner.statement.TokenKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which views use a table's column, for DROP COLUMN's RESTRICT (2BP01) and CASCADE. Views keep their
 * query's text, not a parsed query with PostgreSQL's pg_depend rows, so a view counts as using the
 * column when its text names the table and either names the column or selects {@code *} (PostgreSQL
 * records a dependency on every column {@code *} expands to). Conservative: a column of the same name
 * in another table of the view's query counts too.
 */
final class ViewColumnUses {
    private ViewColumnUses() {
    }

    /** The views, by name, whose query names one of {@code tableNames} and uses {@code column}. */
    static List<View> viewsUsing(Catalog catalog, Set<String> tableNames, String column) {
        List<View> using = new ArrayList<>();
        for (View view : catalog.views()) {
            List<Token> tokens = SqlLexer.tokenize(view.query());
            boolean namesTable = false;
            boolean usesColumn = false;
            for (int index = 0; index < tokens.size(); index++) {
                Token token = tokens.get(index);
                boolean name = token.kind() == TokenKind.IDENTIFIER || token.kind() == TokenKind.QUOTED_IDENTIFIER;
                namesTable |= name && tableNames.contains(token.value());
                usesColumn |= name && token.value().equals(column) || isStar(tokens, index);
            }
            if (namesTable && usesColumn) {
                using.add(view);
            }
        }
        return using;
    }

    /** A select list's {@code *} or {@code t.*}, not {@code count(*)} nor a multiplication. */
    private static boolean isStar(List<Token> tokens, int index) {
        if (!tokens.get(index).isSymbol("*") || index == 0) {
            return false;
        }
        Token before = tokens.get(index - 1);
        return before.isKeyword("select") || before.isKeyword("distinct") || before.isKeyword("all")
                || before.isSymbol(",") && !inParentheses(tokens, index) || before.isSymbol(".");
    }

    /** Whether token {@code index} is inside parentheses (an argument list, not the select list). */
    private static boolean inParentheses(List<Token> tokens, int index) {
        int depth = 0;
        for (int at = 0; at < index; at++) {
            if (tokens.get(at).isSymbol("(")) {
                depth++;
            } else if (tokens.get(at).isSymbol(")")) {
                depth--;
            }
        }
        return depth > 0;
    }
}
