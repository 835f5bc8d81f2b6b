package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

/**
 * The flags of PostgreSQL's regular-expression functions ({@code regexp_replace(s, p, r, 'gi')}):
 * g all matches; i / c case-insensitive / sensitive (the last wins); n and its synonym m
 * newline-sensitive ({@code .} and bracket expressions with {@code ^} never match a newline,
 * {@code ^} and {@code $} match at line ends), p partial (the first half), w inverse partial (the
 * second half), s and t the defaults; x expanded syntax; q the pattern is a literal string; e an
 * extended RE, treated as an advanced one. Basic REs (b) are refused with 0A000; any other letter
 * raises PostgreSQL's 22023.
 */
public record RegexFlags(boolean global, boolean caseInsensitive, boolean dotMatchesNewline, boolean anchorsAtNewlines,
                         boolean expanded, boolean literal) {
    /** No flags: one match, case-sensitive, not newline-sensitive. */
    public static final RegexFlags NONE = new RegexFlags(false, false, true, false, false, false);
    /** The flags of {@code ~*} and {@code !~*}. */
    public static final RegexFlags CASE_INSENSITIVE = new RegexFlags(false, true, true, false, false, false);

    /** The flags written in {@code text}; {@code allowGlobal} false where PostgreSQL refuses g (regexp_match). */
    public static RegexFlags parse(String text, boolean allowGlobal) {
        boolean global = false;
        boolean caseInsensitive = false;
        boolean dotMatchesNewline = true;
        boolean anchorsAtNewlines = false;
        boolean expanded = false;
        boolean literal = false;
        for (int index = 0; index < text.length(); index++) {
            char flag = text.charAt(index);
            switch (flag) {
                case 'g' -> {
                    if (!allowGlobal) {
                        throw invalidOption(flag);
                    }
                    global = true;
                }
                case 'i' -> caseInsensitive = true;
                case 'c' -> caseInsensitive = false;
                case 'n', 'm' -> {
                    dotMatchesNewline = false;
                    anchorsAtNewlines = true;
                }
                case 's' -> {
                    dotMatchesNewline = true;
                    anchorsAtNewlines = false;
                }
                case 'p' -> {
                    dotMatchesNewline = false;
                    anchorsAtNewlines = false;
                }
                case 'w' -> {
                    dotMatchesNewline = true;
                    anchorsAtNewlines = true;
                }
                case 'x' -> expanded = true;
                case 't' -> expanded = false;
                case 'q' -> literal = true;
                case 'e' -> literal = false;
                case 'b' -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "basic regular expressions (flag \"b\") are not supported");
                default -> throw invalidOption(flag);
            }
        }
        return new RegexFlags(global, caseInsensitive, dotMatchesNewline, anchorsAtNewlines, expanded, literal);
    }

    private static ParallaxException invalidOption(char flag) {
        return ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid regular expression option: \"%s\"", String.valueOf(flag));
    }
}
