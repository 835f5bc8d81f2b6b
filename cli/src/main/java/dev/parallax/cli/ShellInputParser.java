package dev.parallax.cli;

import dev.parallax.planner.statement.StatementSplitter;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;

import java.util.List;
import java.util.Locale;

/**
 * Decides when the interactive shell has a whole input: a backslash command, one of psql's
 * bare words ({@code help}, {@code quit}, {@code exit}), or SQL whose last statement ends with a
 * semicolon. Until then Enter continues the input on a new line, and the continuation prompt
 * names what is open, as psql's does: {@code '} inside a string, {@code "} inside a quoted
 * identifier, {@code (} inside parentheses, {@code -} otherwise (JLine's {@code %M}).
 */
final class ShellInputParser extends DefaultParser {
    private static final String END_PROBE = "\u0001";
    /** While COPY data is typed: every line is whole as it is, never SQL waiting for a semicolon. */
    private boolean rawLines;

    ShellInputParser() {
        // Backslashes are meta-commands and SQL text, never escapes for the line editor.
        setEscapeChars(null);
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        // JLine asks again with SECONDARY_PROMPT to learn what is missing for the continuation prompt.
        if (!rawLines && (context == ParseContext.ACCEPT_LINE || context == ParseContext.SECONDARY_PROMPT) && !isComplete(line)) {
            throw new EOFError(-1, -1, "statement not ended by a semicolon", openConstruct(line));
        }
        return super.parse(line, cursor, context == ParseContext.COMPLETE ? context : ParseContext.SPLIT_LINE);
    }

    /** Takes each line as a whole input while {@code raw} (COPY data), as SQL otherwise. */
    void setRawLines(boolean raw) {
        this.rawLines = raw;
    }

    static boolean isComplete(String input) {
        String stripped = input.strip();
        if (stripped.isEmpty() || stripped.startsWith("\\") || isBareWord(stripped)) {
            return true;
        }
        if (StatementSplitter.isBlank(input)) {
            return true;
        }
        List<String> pieces = StatementSplitter.split(input + END_PROBE);
        return pieces.getLast().equals(END_PROBE);
    }

    /** psql's {@code help}, {@code quit} and {@code exit} typed alone on the first line. */
    static boolean isBareWord(String stripped) {
        String word = stripped.endsWith(";") ? stripped.substring(0, stripped.length() - 1).strip() : stripped;
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "help", "quit", "exit" -> !stripped.endsWith(";") || word.equalsIgnoreCase("help");
            default -> false;
        };
    }

    /** The construct left open at the end of {@code input}: {@code '}, {@code "}, {@code (} or {@code -}. */
    static String openConstruct(String input) {
        int depth = 0;
        int length = input.length();
        for (int index = 0; index < length; index++) {
            char character = input.charAt(index);
            if (character == '\'' || character == '"') {
                int close = index + 1;
                while (close < length) {
                    if (input.charAt(close) == character) {
                        if (close + 1 < length && input.charAt(close + 1) == character) {
                            close += 2;
                            continue;
                        }
                        break;
                    }
                    close++;
                }
                if (close >= length) {
                    return String.valueOf(character);
                }
                index = close;
            } else if (character == '-' && index + 1 < length && input.charAt(index + 1) == '-') {
                int end = input.indexOf('\n', index);
                if (end < 0) {
                    break;
                }
                index = end;
            } else if (character == '(') {
                depth++;
            } else if (character == ')' && depth > 0) {
                depth--;
            }
        }
        return depth > 0 ? "(" : "-";
    }
}
