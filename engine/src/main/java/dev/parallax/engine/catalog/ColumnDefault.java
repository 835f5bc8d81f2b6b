package dev.parallax.engine.catalog;

import java.util.Objects;

/**
 * A column's default value: the expression as the user wrote it, which the planner plans into every
 * INSERT, UPDATE ... SET c = DEFAULT and COPY that needs it (so it is evaluated by the engine's
 * vectorized expressions, per row for volatile functions), and the text PostgreSQL shows for it in
 * pg_attrdef ({@code pg_get_expr}), {@code information_schema.columns.column_default} and psql's
 * {@code \d}. Checked when declared: no column references, no subqueries, a type assignable to the
 * column's.
 *
 * @param expressionText the expression as written, e.g. {@code 'x'} or {@code now()}
 * @param displayText    PostgreSQL's deparsed form, e.g. {@code 'x'::text}
 */
public record ColumnDefault(String expressionText, String displayText) {
    public ColumnDefault {
        Objects.requireNonNull(expressionText, "expressionText");
        Objects.requireNonNull(displayText, "displayText");
    }

    /**
     * The text as PostgreSQL's pretty deparse shows it ({@code pg_get_expr(adbin, adrelid, true)},
     * psql's {@code \d}): without the parentheses around the whole expression ({@code 1 + 2}) and
     * around a function call that is cast ({@code random()::text}).
     */
    public String prettyText() {
        String text = displayText.replaceAll("\\(([a-z_][a-z_0-9]*\\([^()]*\\))\\)::", "$1::");
        if (text.startsWith("(") && text.endsWith(")") && closingParenthesis(text) == text.length() - 1) {
            return text.substring(1, text.length() - 1);
        }
        return text;
    }

    /** The index of the parenthesis that closes the one at index 0, skipping quoted strings. */
    private static int closingParenthesis(String text) {
        int depth = 0;
        boolean quoted = false;
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            if (character == '\'') {
                quoted = !quoted;
            } else if (!quoted && character == '(') {
                depth++;
            } else if (!quoted && character == ')' && --depth == 0) {
                return index;
            }
        }
        return -1;
    }
}
