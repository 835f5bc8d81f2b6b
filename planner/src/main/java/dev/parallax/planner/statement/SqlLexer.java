package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tokenizer for the utility statements Parallax parses itself (DDL, SET/SHOW, COPY, CALL,
 * EXPLAIN options). Follows PostgreSQL's lexical rules for identifiers, quoting, comments and
 * constants; queries themselves go to Calcite untouched.
 */
public final class SqlLexer {
    private static final String OPERATOR_CHARACTERS = "+-*/<>=~!@#%^&|`?:";

    private SqlLexer() {
    }

    /** All tokens of {@code sql}, ending with one {@link TokenKind#END} token. Errors are 42601 with a position. */
    public static List<Token> tokenize(String sql) {
        List<Token> tokens = new ArrayList<>();
        int length = sql.length();
        int position = 0;
        while (position < length) {
            char character = sql.charAt(position);
            if (Character.isWhitespace(character)) {
                position++;
                continue;
            }
            if (sql.startsWith("--", position) || sql.startsWith("/*", position)) {
                int end = StatementSplitter.skipQuotedOrComment(sql, position);
                if (sql.startsWith("/*", position) && !sql.startsWith("*/", end - 2)) {
                    throw syntaxError("unterminated /* comment", position);
                }
                position = end;
                continue;
            }
            int start = position;
            if (character == '\'' || ((character == 'E' || character == 'e') && position + 1 < length && sql.charAt(position + 1) == '\'')) {
                boolean escapes = character != '\'';
                position = readString(sql, escapes ? position + 1 : position, escapes, tokens, start);
            } else if (character == '"') {
                position = readQuotedIdentifier(sql, position, tokens);
            } else if (character == '$' && StatementSplitter.dollarTagEnd(sql, position) > 0) {
                int tagEnd = StatementSplitter.dollarTagEnd(sql, position);
                String tag = sql.substring(position, tagEnd);
                int close = sql.indexOf(tag, tagEnd);
                if (close < 0) {
                    throw syntaxError("unterminated dollar-quoted string", start);
                }
                tokens.add(new Token(TokenKind.STRING, sql.substring(tagEnd, close), start, close + tag.length()));
                position = close + tag.length();
            } else if (Character.isLetter(character) || character == '_' || character > 127) {
                while (position < length && StatementSplitter.isIdentifierPart(sql.charAt(position))) {
                    position++;
                }
                tokens.add(new Token(TokenKind.IDENTIFIER, sql.substring(start, position).toLowerCase(Locale.ROOT), start, position));
            } else if (Character.isDigit(character) || (character == '.' && position + 1 < length && Character.isDigit(sql.charAt(position + 1)))) {
                position = readNumber(sql, position);
                tokens.add(new Token(TokenKind.NUMBER, sql.substring(start, position), start, position));
            } else if (character == '$') {
                position++;
                while (position < length && Character.isDigit(sql.charAt(position))) {
                    position++;
                }
                tokens.add(new Token(TokenKind.SYMBOL, sql.substring(start, position), start, position));
            } else if ("(),;.[]".indexOf(character) >= 0) {
                tokens.add(new Token(TokenKind.SYMBOL, String.valueOf(character), start, position + 1));
                position++;
            } else if (OPERATOR_CHARACTERS.indexOf(character) >= 0) {
                while (position < length && OPERATOR_CHARACTERS.indexOf(sql.charAt(position)) >= 0
                        && !sql.startsWith("--", position) && !sql.startsWith("/*", position)) {
                    position++;
                }
                tokens.add(new Token(TokenKind.SYMBOL, sql.substring(start, position), start, position));
            } else {
                throw syntaxError("syntax error at or near \"" + character + "\"", start);
            }
        }
        tokens.add(new Token(TokenKind.END, "", length, length));
        return tokens;
    }

    private static int readString(String sql, int quote, boolean escapes, List<Token> tokens, int start) {
        StringBuilder value = new StringBuilder();
        int position = quote + 1;
        while (position < sql.length()) {
            char character = sql.charAt(position);
            if (escapes && character == '\\' && position + 1 < sql.length()) {
                char escaped = sql.charAt(position + 1);
                value.append(switch (escaped) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    default -> escaped;
                });
                position += 2;
                continue;
            }
            if (character == '\'') {
                if (position + 1 < sql.length() && sql.charAt(position + 1) == '\'') {
                    value.append('\'');
                    position += 2;
                    continue;
                }
                tokens.add(new Token(TokenKind.STRING, value.toString(), start, position + 1));
                return position + 1;
            }
            value.append(character);
            position++;
        }
        throw syntaxError("unterminated quoted string at or near \"" + sql.substring(start) + "\"", start);
    }

    private static int readQuotedIdentifier(String sql, int quote, List<Token> tokens) {
        StringBuilder value = new StringBuilder();
        int position = quote + 1;
        while (position < sql.length()) {
            char character = sql.charAt(position);
            if (character == '"') {
                if (position + 1 < sql.length() && sql.charAt(position + 1) == '"') {
                    value.append('"');
                    position += 2;
                    continue;
                }
                if (value.isEmpty()) {
                    throw syntaxError("zero-length delimited identifier at or near \"\"\"\"", quote);
                }
                tokens.add(new Token(TokenKind.QUOTED_IDENTIFIER, value.toString(), quote, position + 1));
                return position + 1;
            }
            value.append(character);
            position++;
        }
        throw syntaxError("unterminated quoted identifier at or near \"" + sql.substring(quote) + "\"", quote);
    }

    private static int readNumber(String sql, int start) {
        int position = start;
        int length = sql.length();
        while (position < length && Character.isDigit(sql.charAt(position))) {
            position++;
        }
        if (position < length && sql.charAt(position) == '.') {
            position++;
            while (position < length && Character.isDigit(sql.charAt(position))) {
                position++;
            }
        }
        if (position < length && (sql.charAt(position) == 'e' || sql.charAt(position) == 'E')) {
            int exponent = position + 1;
            if (exponent < length && (sql.charAt(exponent) == '+' || sql.charAt(exponent) == '-')) {
                exponent++;
            }
            if (exponent < length && Character.isDigit(sql.charAt(exponent))) {
                position = exponent;
                while (position < length && Character.isDigit(sql.charAt(position))) {
                    position++;
                }
            }
        }
        return position;
    }

    static ParallaxException syntaxError(String message, int offset) {
        return new ParallaxException(SqlState.SYNTAX_ERROR, message, null, null, offset + 1, null);
    }
}
