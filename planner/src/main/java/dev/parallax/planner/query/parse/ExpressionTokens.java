package dev.parallax.planner.query.parse;

/** Token-level facts about an expression's or a statement's text, read before it is planned. */
public final class ExpressionTokens {
    private ExpressionTokens() {
    }

    /** Whether the word (a keyword, any case) occurs in {@code text} outside strings and quoted names. */
    public static boolean containsWord(String text, String word) {
        for (SqlToken token : PostgresLexer.tokenize(text)) {
            if (token.isWord(word)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the first token of {@code text} past spaces and comments is the word (a keyword, any case). */
    public static boolean startsWithWord(String text, String word) {
        for (SqlToken token : PostgresLexer.tokenize(text)) {
            if (token.kind() != SqlToken.Kind.SPACE) {
                return token.isWord(word);
            }
        }
        return false;
    }

    /** Whether {@code text} is one string constant, possibly in parentheses: PostgreSQL's untyped literal. */
    public static boolean isStringConstant(String text) {
        int strings = 0;
        for (SqlToken token : PostgresLexer.tokenize(text)) {
            switch (token.kind()) {
                case STRING -> strings++;
                case SPACE, LEFT_PARENTHESIS, RIGHT_PARENTHESIS -> {
                }
                default -> {
                    return false;
                }
            }
        }
        return strings == 1;
    }
}
