package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * PostgreSQL's advanced regular expressions (ARE) compiled to java.util.regex. The two agree on
 * most syntax (classes, groups, alternation, greedy and lazy quantifiers, lookahead, back
 * references, {@code \d \s \w}); where they differ the pattern is rewritten:
 * <ul>
 * <li>{@code .} matches a newline and {@code $} only the end of the text (Java: before a final
 * newline too), unless the flags make the RE newline-sensitive; there a negated bracket
 * expression does not match a newline either;</li>
 * <li>ARE escapes Java lacks: {@code \m} {@code \M} (word start, end), {@code \y} {@code \Y}
 * (word boundary, not), {@code \Z} (end of text), {@code \B} (a backslash), {@code \xhhh} and
 * {@code \Uhhhhhhhh} of any length; Java escapes ARE lacks ({@code \Q}, {@code \p}, {@code \h},
 * {@code \R}...) are errors, as they are in PostgreSQL;</li>
 * <li>bracket expressions: {@code ]} first is a literal, {@code [:alpha:]} and the other classes
 * (ASCII, as PostgreSQL's C locale), {@code [.c.]} and {@code [=c=]} of one character; a
 * {@code [} or {@code &&} inside is literal (Java would nest or intersect classes);</li>
 * <li>a quantifier followed by {@code +} is an error (Java: possessive);</li>
 * <li>{@code ***=} makes the rest a literal string.</li>
 * </ul>
 * Invalid patterns raise 2201B "invalid regular expression: ...".
 */
public final class PosixRegex {
    private PosixRegex() {
    }

    public static Pattern compile(String pattern, RegexFlags flags) {
        boolean literal = flags.literal();
        String body = pattern;
        if (body.startsWith("***=")) {
            literal = true;
            body = body.substring(4);
        } else if (body.startsWith("***:")) {
            body = body.substring(4);
        }
        int javaFlags = (flags.caseInsensitive() ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0)
                | (flags.dotMatchesNewline() ? Pattern.DOTALL : 0)
                | (flags.anchorsAtNewlines() ? Pattern.MULTILINE | Pattern.UNIX_LINES : 0)
                | (flags.expanded() && !literal ? Pattern.COMMENTS : 0);
        String translated = literal ? Pattern.quote(body) : translate(body, flags);
        try {
            return Pattern.compile(translated, javaFlags);
        } catch (PatternSyntaxException invalid) {
            throw invalid(postgresReason(invalid.getDescription()));
        }
    }

    /** PostgreSQL's wording (regerror) of the Java errors that have one. */
    private static String postgresReason(String javaDescription) {
        if (javaDescription.startsWith("Unclosed group") || javaDescription.startsWith("Unmatched closing ')'")) {
            return "parentheses () not balanced";
        }
        if (javaDescription.startsWith("Unclosed character class")) {
            return "brackets [] not balanced";
        }
        if (javaDescription.startsWith("Dangling meta character")) {
            return "quantifier operand invalid";
        }
        if (javaDescription.startsWith("Illegal repetition") || javaDescription.startsWith("Unclosed counted closure")) {
            return "braces {} not balanced";
        }
        if (javaDescription.startsWith("Illegal character range")) {
            return "invalid character range";
        }
        return javaDescription;
    }

    private static ParallaxException invalid(String reason) {
        return ParallaxException.of(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s", reason);
    }

    private static String translate(String pattern, RegexFlags flags) {
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        int index = 0;
        int length = pattern.length();
        while (index < length) {
            char character = pattern.charAt(index);
            switch (character) {
                case '\\' -> index = escape(pattern, index, out);
                case '[' -> index = bracket(pattern, index, out, flags);
                case '$' -> {
                    // Java's $ also matches before a final newline; ARE's only at the end (or at line ends, newline-sensitive).
                    out.append(flags.anchorsAtNewlines() ? "$" : "\\z");
                    index++;
                }
                case '*', '+', '?', '}' -> {
                    out.append(character);
                    index++;
                    if (index < length && pattern.charAt(index) == '?') {
                        out.append('?');
                        index++;
                    } else if (index < length && pattern.charAt(index) == '+') {
                        throw invalid("quantifier operand invalid");
                    }
                }
                default -> {
                    out.append(character);
                    index++;
                }
            }
        }
        return out.toString();
    }

    /** An escape outside a bracket expression, at {@code start} (the backslash); returns the index after it. */
    private static int escape(String pattern, int start, StringBuilder out) {
        if (start + 1 >= pattern.length()) {
            throw invalid("invalid escape \\ sequence");
        }
        char escaped = pattern.charAt(start + 1);
        int next = start + 2;
        switch (escaped) {
            case 'm' -> out.append("\\b(?=\\w)");
            case 'M' -> out.append("\\b(?<=\\w)");
            case 'y' -> out.append("\\b");
            case 'Y' -> out.append("\\B");
            case 'Z' -> out.append("\\z");
            case 'B' -> out.append("\\\\");
            case 'A', 'd', 'D', 's', 'S', 'w', 'W', 'a', 'e', 'f', 'n', 'r', 't', 'v' ->
                    out.append(escaped == 'v' ? "\\x0B" : escaped == 'a' ? "\\x07" : "\\" + escaped);
            case 'x', 'U', 'u' -> {
                int maximum = escaped == 'u' ? 4 : escaped == 'U' ? 8 : Integer.MAX_VALUE;
                int end = next;
                while (end < pattern.length() && end - next < maximum && Character.digit(pattern.charAt(end), 16) >= 0) {
                    end++;
                }
                if (end == next || escaped != 'x' && end - next != maximum) {
                    throw invalid("invalid escape \\ sequence");
                }
                out.append("\\x{").append(pattern, next, end).append('}');
                next = end;
            }
            case 'c' -> {
                if (next >= pattern.length()) {
                    throw invalid("invalid escape \\ sequence");
                }
                out.append("\\x{").append(Integer.toHexString(pattern.charAt(next) & 0x1F)).append('}');
                next++;
            }
            default -> {
                if (Character.isDigit(escaped)) {
                    // Back references \1..\99 as written; \0 is an octal escape in both.
                    out.append('\\').append(escaped);
                } else if (Character.isLetterOrDigit(escaped)) {
                    throw invalid("invalid escape \\ sequence");
                } else {
                    out.append('\\').append(escaped);
                }
            }
        }
        return next;
    }

    /** A bracket expression at {@code start} (the {@code [}); returns the index after its {@code ]}. */
    private static int bracket(String pattern, int start, StringBuilder out, RegexFlags flags) {
        int index = start + 1;
        int length = pattern.length();
        out.append('[');
        boolean negated = index < length && pattern.charAt(index) == '^';
        if (negated) {
            out.append('^');
            index++;
        }
        boolean first = true;
        while (true) {
            if (index >= length) {
                throw invalid("brackets [] not balanced");
            }
            char character = pattern.charAt(index);
            if (character == ']' && !first) {
                break;
            }
            first = false;
            if (character == '[' && index + 1 < length && ":.=".indexOf(pattern.charAt(index + 1)) >= 0) {
                char kind = pattern.charAt(index + 1);
                int close = pattern.indexOf(new String(new char[] {kind, ']'}), index + 2);
                if (close < 0) {
                    throw invalid("brackets [] not balanced");
                }
                String name = pattern.substring(index + 2, close);
                if (kind == ':') {
                    out.append(characterClass(name));
                } else if (name.codePointCount(0, name.length()) == 1) {
                    appendLiteral(out, name);
                } else {
                    throw invalid("invalid collating element");
                }
                index = close + 2;
                continue;
            }
            if (character == '\\' && index + 1 < length) {
                char escaped = pattern.charAt(index + 1);
                if ("dDsSwW".indexOf(escaped) >= 0 || !Character.isLetterOrDigit(escaped)) {
                    out.append('\\').append(escaped);
                } else {
                    StringBuilder single = new StringBuilder();
                    escape(pattern, index, single);
                    out.append(single);
                }
                index += 2;
                continue;
            }
            appendLiteral(out, String.valueOf(character));
            index++;
        }
        if (negated && !flags.dotMatchesNewline()) {
            out.append("\\n");
        }
        out.append(']');
        return index + 1;
    }

    /** A character inside a Java class: the ones Java gives a meaning there are escaped ({@code -} keeps its range meaning). */
    private static void appendLiteral(StringBuilder out, String characters) {
        for (int index = 0; index < characters.length(); index++) {
            char character = characters.charAt(index);
            if ("[]&\\^".indexOf(character) >= 0) {
                out.append('\\');
            }
            out.append(character);
        }
    }

    /** A POSIX character class as Java's ASCII classes: PostgreSQL's C locale classifies only ASCII. */
    private static String characterClass(String name) {
        return switch (name) {
            case "alpha" -> "\\p{Alpha}";
            case "digit" -> "\\p{Digit}";
            case "alnum" -> "\\p{Alnum}";
            case "upper" -> "\\p{Upper}";
            case "lower" -> "\\p{Lower}";
            case "space" -> "\\s";
            case "blank" -> "\\p{Blank}";
            case "punct" -> "\\p{Punct}";
            case "print" -> "\\p{Print}";
            case "graph" -> "\\p{Graph}";
            case "cntrl" -> "\\p{Cntrl}";
            case "xdigit" -> "\\p{XDigit}";
            case "word" -> "\\w";
            default -> throw invalid("invalid character class");
        };
    }
}
