package dev.parallax.cli;

import dev.parallax.engine.error.ParallaxException;

/**
 * An error as psql shows it: {@code ERROR:  message}; when the error points into the statement, a
 * {@code LINE n: } excerpt with a caret under the position; then {@code DETAIL:  }, {@code HINT:  }
 * and {@code CONTEXT:  }. The excerpt is libpq's {@code reportErrorPosition}: lines longer than 60
 * screen columns are cut with {@code ...} around the part that holds the caret.
 */
final class ErrorReport {
    private static final int DISPLAY_SIZE = 60;
    private static final int MIN_RIGHT_CUT = 10;

    private ErrorReport() {
    }

    /**
     * The lines (each ending in a newline) describing {@code error}, raised by {@code statement}.
     * {@code locus} prefixes the first line ({@code parallax:file.sql:3: }) and may be empty.
     */
    static String format(RuntimeException error, String statement, String locus) {
        StringBuilder text = new StringBuilder(locus).append("ERROR:  ").append(message(error)).append('\n');
        // libpq's order: the LINE excerpt right under the message, then DETAIL, HINT and CONTEXT.
        if (error instanceof ParallaxException parallax) {
            if (parallax.position() > 0 && statement != null) {
                appendPosition(text, statement, parallax.position());
            }
            if (parallax.detail() != null) {
                text.append("DETAIL:  ").append(parallax.detail()).append('\n');
            }
            if (parallax.hint() != null) {
                text.append("HINT:  ").append(parallax.hint()).append('\n');
            }
            if (parallax.context() != null) {
                text.append("CONTEXT:  ").append(parallax.context()).append('\n');
            }
        }
        return text.toString();
    }

    private static String message(RuntimeException error) {
        if (error instanceof ParallaxException || error.getMessage() != null && !error.getMessage().isBlank()) {
            return error.getMessage();
        }
        // Not a user error: a bug. Name it rather than print "null".
        return "internal error: " + error;
    }

    /** Appends {@code LINE n: ...} and the caret line for the 1-based character {@code position}. */
    static void appendPosition(StringBuilder text, String statement, int position) {
        int[] codePoints = statement.codePoints().toArray();
        int location = position - 1;
        if (location > codePoints.length) {
            return;
        }
        // screenColumn[i] is where character i starts on screen; filled up to the line's end.
        int[] screenColumn = new int[codePoints.length + 1];
        int column = 0;
        int lineNumber = 1;
        int begin = 0;
        int end = -1;
        int index;
        for (index = 0; index < codePoints.length; index++) {
            int character = codePoints[index];
            screenColumn[index] = column;
            if (character == '\r' || character == '\n') {
                if (index < location) {
                    if (character == '\r' || index == 0 || codePoints[index - 1] != '\r') {
                        lineNumber++;
                    }
                    begin = index + 1;
                } else {
                    end = index;
                    break;
                }
            }
            int width = character == '\t' ? 1 : DisplayWidth.ofCodePoint(character);
            column += Math.max(1, width);
        }
        if (end < 0) {
            end = codePoints.length;
            screenColumn[end] = column;
        }
        boolean cutBegin = false;
        boolean cutEnd = false;
        if (screenColumn[end] - screenColumn[begin] > DISPLAY_SIZE) {
            if (screenColumn[begin] + DISPLAY_SIZE >= screenColumn[location] + MIN_RIGHT_CUT) {
                while (screenColumn[end] - screenColumn[begin] > DISPLAY_SIZE) {
                    end--;
                }
                cutEnd = true;
            } else {
                while (screenColumn[location] + MIN_RIGHT_CUT < screenColumn[end]) {
                    end--;
                    cutEnd = true;
                }
                while (screenColumn[end] - screenColumn[begin] > DISPLAY_SIZE) {
                    begin++;
                    cutBegin = true;
                }
            }
        }
        String prefix = "LINE " + lineNumber + ": " + (cutBegin ? "..." : "");
        text.append(prefix);
        for (int character = begin; character < end; character++) {
            text.appendCodePoint(codePoints[character] == '\t' ? ' ' : codePoints[character]);
        }
        if (cutEnd) {
            text.append("...");
        }
        text.append('\n');
        int caretColumn = prefix.length() + screenColumn[location] - screenColumn[begin];
        text.append(" ".repeat(caretColumn)).append("^\n");
    }
}
