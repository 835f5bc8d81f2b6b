package dev.parallax.planner.query.parse;

import java.util.Locale;

/**
 * One lexical token of PostgreSQL-flavoured SQL text, as {@link PostgresLexer} cuts it.
 * {@code position} is the 0-based offset of its first character in the original statement.
 */
record SqlToken(Kind kind, String text, int position) {
    enum Kind {
        /** Unquoted identifier or keyword. */
        WORD,
        /** Double-quoted identifier, quotes included. */
        QUOTED_IDENTIFIER,
        /** Single-quoted string, quotes included. */
        STRING,
        /** {@code B'0101'}: text holds the digits only. */
        BIT_STRING,
        NUMBER,
        /** {@code $n}: text holds the digits only. */
        NUMBERED_PARAMETER,
        /** {@code ?}. */
        POSITIONAL_PARAMETER,
        OPERATOR,
        LEFT_PARENTHESIS,
        RIGHT_PARENTHESIS,
        COMMA,
        SEMICOLON,
        DOT,
        /** Whitespace and comments: kept so the rewritten text stays readable and positions map back. */
        SPACE
    }

    boolean isWord(String word) {
        return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean isOperator(String operator) {
        return kind == Kind.OPERATOR && text.equals(operator);
    }

    String lowerText() {
        return text.toLowerCase(Locale.ROOT);
    }

    /** A {@link Kind#STRING} token's value: its text without the quotes, a doubled quote read as one. */
    String stringValue() {
        return text.substring(1, text.length() - 1).replace("''", "'");
    }
}
