package dev.parallax.planner.statement;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at semicolons the way psql does: a {@code ;} inside a string
 * ({@code '...'}, {@code E'...'}), a quoted identifier ({@code "..."}), a dollar-quoted string
 * ({@code $tag$...$tag$}), a comment ({@code -- ...}, nested {@code /* ... *}{@code /}) or parentheses
 * does not end a statement. Used by the CLI, the JDBC driver and the wire server's simple query.
 */
public final class StatementSplitter {
    private StatementSplitter() {
    }

    /**
     * The statements of {@code script}, in order, each trimmed and without its terminating semicolon.
     * Pieces holding only whitespace and comments are left out; a last statement without a
     * semicolon is included. An unterminated quote or comment runs to the end of the script (the
     * statement then fails to parse where it is executed, as in psql).
     */
    public static List<String> split(String script) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int depth = 0;
        boolean meaningful = false;
        int position = 0;
        int length = script.length();
        while (position < length) {
            char character = script.charAt(position);
            int skipped = skipQuotedOrComment(script, position);
            if (skipped != position) {
                // A comment alone does not make a statement; a string or identifier does.
                if (!isCommentStart(script, position)) {
                    meaningful = true;
                }
                position = skipped;
                continue;
            }
            if (character == '(') {
                depth++;
            } else if (character == ')') {
                depth = Math.max(0, depth - 1);
            } else if (character == ';' && depth == 0) {
                if (meaningful) {
                    statements.add(script.substring(start, position).strip());
                }
                start = position + 1;
                meaningful = false;
                position++;
                continue;
            }
            if (!Character.isWhitespace(character)) {
                meaningful = true;
            }
            position++;
        }
        if (meaningful) {
            statements.add(script.substring(start).strip());
        }
        return statements;
    }

    /** True when {@code sql} holds nothing but whitespace, comments and semicolons. */
    public static boolean isBlank(String sql) {
        return split(sql).isEmpty();
    }

    private static boolean isCommentStart(String text, int position) {
        return text.startsWith("--", position) || text.startsWith("/*", position);
    }

    /**
     * When a quoted token or comment starts at {@code position}, the position just past its end
     * (or the end of the text when unterminated); otherwise {@code position} itself.
     */
    static int skipQuotedOrComment(String text, int position) {
        char character = text.charAt(position);
        if (character == '-' && text.startsWith("--", position)) {
            int end = text.indexOf('\n', position);
            return end < 0 ? text.length() : end + 1;
        }
        if (character == '/' && text.startsWith("/*", position)) {
            return skipBlockComment(text, position);
        }
        if (character == '\'') {
            boolean backslashEscapes = position > 0 && (text.charAt(position - 1) == 'E' || text.charAt(position - 1) == 'e')
                    && (position == 1 || !isIdentifierPart(text.charAt(position - 2)));
            return skipQuoted(text, position, '\'', backslashEscapes);
        }
        if (character == '"') {
            return skipQuoted(text, position, '"', false);
        }
        if (character == '$') {
            int tagEnd = dollarTagEnd(text, position);
            if (tagEnd > 0 && (position == 0 || !isIdentifierPart(text.charAt(position - 1)))) {
                String tag = text.substring(position, tagEnd);
                int close = text.indexOf(tag, tagEnd);
                return close < 0 ? text.length() : close + tag.length();
            }
        }
        return position;
    }

    /** End (exclusive) of a dollar-quote opening tag {@code $tag$} at {@code position}, or -1 ({@code $1} is a parameter). */
    static int dollarTagEnd(String text, int position) {
        int index = position + 1;
        if (index < text.length() && Character.isDigit(text.charAt(index))) {
            return -1;
        }
        while (index < text.length() && isIdentifierPart(text.charAt(index))) {
            index++;
        }
        return index < text.length() && text.charAt(index) == '$' ? index + 1 : -1;
    }

    private static int skipBlockComment(String text, int position) {
        // PostgreSQL nests block comments: /* a /* b */ c */ is one comment.
        int depth = 0;
        int index = position;
        while (index < text.length()) {
            if (text.startsWith("/*", index)) {
                depth++;
                index += 2;
            } else if (text.startsWith("*/", index)) {
                depth--;
                index += 2;
                if (depth == 0) {
                    return index;
                }
            } else {
                index++;
            }
        }
        return text.length();
    }

    private static int skipQuoted(String text, int position, char quote, boolean backslashEscapes) {
        int index = position + 1;
        while (index < text.length()) {
            char character = text.charAt(index);
            if (backslashEscapes && character == '\\') {
                index += 2;
                continue;
            }
            if (character == quote) {
                if (index + 1 < text.length() && text.charAt(index + 1) == quote) {
                    index += 2;
                    continue;
                }
                return index + 1;
            }
            index++;
        }
        return text.length();
    }

    static boolean isIdentifierPart(char character) {
        return Character.isLetterOrDigit(character) || character == '_' || character > 127;
    }
}
