package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts SQL text into {@link SqlToken}s the way PostgreSQL's scanner does for the pieces Parallax
 * accepts: quoted strings with doubled quotes, quoted identifiers, {@code --} and nested
 * {@code /* *}{@code /} comments, {@code B'...'} bit strings, {@code $n} parameters and operators.
 */
final class PostgresLexer {
    /**
     * Longest first: {@code !~*} before {@code !~}, {@code ||/} (cube root) before {@code |/}
     * (square root) before {@code ||}.
     */
    private static final String[] MULTI_CHARACTER_OPERATORS = {"||/", "!~*", "|/", "::", "<=", ">=", "<>", "!=", "||", "<<", ">>", "!~", "~*", "@>", "<@", "&&"};
    private static final String OPERATOR_CHARACTERS = "+-*/<>=~!@#%^&|`?:";

    private final String sql;
    private int offset;

    private PostgresLexer(String sql) {
        this.sql = sql;
    }

    static List<SqlToken> tokenize(String sql) {
        return new PostgresLexer(sql).run();
    }

    private List<SqlToken> run() {
        List<SqlToken> tokens = new ArrayList<>();
        while (offset < sql.length()) {
            tokens.add(next());
        }
        return tokens;
    }

    private SqlToken next() {
        int start = offset;
        char character = sql.charAt(offset);
        if (Character.isWhitespace(character)) {
            while (offset < sql.length() && Character.isWhitespace(sql.charAt(offset))) {
                offset++;
            }
            return token(Kind.SPACE, start);
        }
        if (sql.startsWith("--", offset)) {
            while (offset < sql.length() && sql.charAt(offset) != '\n') {
                offset++;
            }
            return token(Kind.SPACE, start);
        }
        if (sql.startsWith("/*", offset)) {
            skipBlockComment(start);
            return token(Kind.SPACE, start);
        }
        if ((character == 'b' || character == 'B') && offset + 1 < sql.length() && sql.charAt(offset + 1) == '\'') {
            offset++;
            skipQuoted('\'', start);
            return new SqlToken(Kind.BIT_STRING, sql.substring(start + 2, offset - 1), start);
        }
        if ((character == 'e' || character == 'E') && offset + 1 < sql.length() && sql.charAt(offset + 1) == '\'') {
            return escapeString(start);
        }
        if (Character.isLetter(character) || character == '_') {
            while (offset < sql.length() && isIdentifierPart(sql.charAt(offset))) {
                offset++;
            }
            return token(Kind.WORD, start);
        }
        if (character == '"') {
            skipQuoted('"', start);
            return token(Kind.QUOTED_IDENTIFIER, start);
        }
        if (character == '\'') {
            skipQuoted('\'', start);
            return token(Kind.STRING, start);
        }
        if (Character.isDigit(character) || (character == '.' && offset + 1 < sql.length() && Character.isDigit(sql.charAt(offset + 1)))) {
            return number(start);
        }
        if (character == '$' && offset + 1 < sql.length() && Character.isDigit(sql.charAt(offset + 1))) {
            offset++;
            while (offset < sql.length() && Character.isDigit(sql.charAt(offset))) {
                offset++;
            }
            return new SqlToken(Kind.NUMBERED_PARAMETER, sql.substring(start + 1, offset), start);
        }
        offset++;
        switch (character) {
            case '(' -> {
                return token(Kind.LEFT_PARENTHESIS, start);
            }
            case ')' -> {
                return token(Kind.RIGHT_PARENTHESIS, start);
            }
            case ',' -> {
                return token(Kind.COMMA, start);
            }
            case ';' -> {
                return token(Kind.SEMICOLON, start);
            }
            case '.' -> {
                return token(Kind.DOT, start);
            }
            case '?' -> {
                return token(Kind.POSITIONAL_PARAMETER, start);
            }
            default -> {
            }
        }
        for (String operator : MULTI_CHARACTER_OPERATORS) {
            // PostgreSQL ends an operator before a comment: 'a'||/* note */'b' is ||.
            if (sql.startsWith(operator, start) && !(operator.endsWith("/") && sql.startsWith("*", start + operator.length()))) {
                offset = start + operator.length();
                return token(Kind.OPERATOR, start);
            }
        }
        if (OPERATOR_CHARACTERS.indexOf(character) < 0 && character != '[' && character != ']') {
            throw new ParallaxException(SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"" + character + "\"", null, null, start + 1, null);
        }
        return token(Kind.OPERATOR, start);
    }

    private SqlToken number(int start) {
        while (offset < sql.length() && (Character.isDigit(sql.charAt(offset)) || sql.charAt(offset) == '.')) {
            offset++;
        }
        if (offset < sql.length() && (sql.charAt(offset) == 'e' || sql.charAt(offset) == 'E')) {
            int exponent = offset + 1;
            if (exponent < sql.length() && (sql.charAt(exponent) == '+' || sql.charAt(exponent) == '-')) {
                exponent++;
            }
            if (exponent < sql.length() && Character.isDigit(sql.charAt(exponent))) {
                offset = exponent;
                while (offset < sql.length() && Character.isDigit(sql.charAt(offset))) {
                    offset++;
                }
            }
        }
        return token(Kind.NUMBER, start);
    }

    private void skipQuoted(char quote, int start) {
        offset++;
        while (true) {
            if (offset >= sql.length()) {
                String what = quote == '"' ? "unterminated quoted identifier" : "unterminated quoted string";
                throw new ParallaxException(SqlState.SYNTAX_ERROR, what + " at or near \"" + sql.substring(start) + "\"",
                        null, null, start + 1, null);
            }
            char character = sql.charAt(offset++);
            if (character == quote) {
                if (offset < sql.length() && sql.charAt(offset) == quote) {
                    offset++;
                } else {
                    return;
                }
            }
        }
    }

    /**
     * {@code E'...'}: a string with C-style backslash escapes ({@code \n}, {@code \t}, {@code \\},
     * {@code \'}, octal {@code \ooo}, hexadecimal {@code \xhh}), returned as the standard string
     * literal of the same value.
     */
    private SqlToken escapeString(int start) {
        offset += 2;
        StringBuilder value = new StringBuilder();
        while (true) {
            if (offset >= sql.length()) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "unterminated quoted string at or near \""
                        + sql.substring(start) + "\"", null, null, start + 1, null);
            }
            char character = sql.charAt(offset++);
            if (character == '\'') {
                if (offset < sql.length() && sql.charAt(offset) == '\'') {
                    value.append('\'');
                    offset++;
                    continue;
                }
                break;
            }
            if (character != '\\' || offset >= sql.length()) {
                value.append(character);
                continue;
            }
            char escaped = sql.charAt(offset++);
            switch (escaped) {
                case 'n' -> value.append('\n');
                case 't' -> value.append('\t');
                case 'r' -> value.append('\r');
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'x' -> {
                    int end = offset;
                    while (end < sql.length() && end < offset + 2 && Character.digit(sql.charAt(end), 16) >= 0) {
                        end++;
                    }
                    if (end == offset) {
                        value.append('x');
                    } else {
                        value.append((char) Integer.parseInt(sql.substring(offset, end), 16));
                        offset = end;
                    }
                }
                default -> {
                    if (escaped >= '0' && escaped <= '7') {
                        int end = offset;
                        while (end < sql.length() && end < offset + 2 && sql.charAt(end) >= '0' && sql.charAt(end) <= '7') {
                            end++;
                        }
                        value.append((char) Integer.parseInt(sql.substring(offset - 1, end), 8));
                        offset = end;
                    } else {
                        value.append(escaped);
                    }
                }
            }
        }
        return new SqlToken(Kind.STRING, "'" + value.toString().replace("'", "''") + "'", start);
    }

    private void skipBlockComment(int start) {
        int depth = 0;
        while (offset < sql.length()) {
            if (sql.startsWith("/*", offset)) {
                depth++;
                offset += 2;
            } else if (sql.startsWith("*/", offset)) {
                depth--;
                offset += 2;
                if (depth == 0) {
                    return;
                }
            } else {
                offset++;
            }
        }
        throw new ParallaxException(SqlState.SYNTAX_ERROR, "unterminated /* comment at or near \"" + sql.substring(start) + "\"",
                null, null, start + 1, null);
    }

    private static boolean isIdentifierPart(char character) {
        return Character.isLetterOrDigit(character) || character == '_' || character == '$';
    }

    private SqlToken token(Kind kind, int start) {
        return new SqlToken(kind, sql.substring(start, offset), start);
    }
}
