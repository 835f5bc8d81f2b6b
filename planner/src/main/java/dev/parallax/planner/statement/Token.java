package dev.parallax.planner.statement;

/**
 * One token of a statement: its kind, its value (identifiers folded, strings unquoted), and where
 * it starts and ends in the statement text (0-based offsets; {@link #position()} is the 1-based
 * character position PostgreSQL reports in errors).
 */
public record Token(TokenKind kind, String value, int start, int end) {
    public int position() {
        return start + 1;
    }

    /** True for an unquoted identifier equal to {@code keyword} (lower case). */
    public boolean isKeyword(String keyword) {
        return kind == TokenKind.IDENTIFIER && value.equals(keyword);
    }

    public boolean isSymbol(String symbol) {
        return kind == TokenKind.SYMBOL && value.equals(symbol);
    }

    /** True for a name: an unquoted or quoted identifier. */
    public boolean isName() {
        return kind == TokenKind.IDENTIFIER || kind == TokenKind.QUOTED_IDENTIFIER;
    }
}
