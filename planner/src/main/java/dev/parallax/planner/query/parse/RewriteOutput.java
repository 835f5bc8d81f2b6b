package dev.parallax.planner.query.parse;

import java.util.Arrays;

/** Rewritten SQL text plus, per character, the original offset it came from. */
final class RewriteOutput {
    private final StringBuilder text = new StringBuilder();
    private int[] positions = new int[64];

    /** Original text: character i came from {@code originalPosition + i}. */
    void appendOriginal(String piece, int originalPosition) {
        append(piece, originalPosition, 1);
    }

    /** Generated text: every character points at {@code originalPosition}. */
    void appendGenerated(String piece, int originalPosition) {
        append(piece, originalPosition, 0);
    }

    private void append(String piece, int originalPosition, int step) {
        for (int index = 0; index < piece.length(); index++) {
            if (text.length() == positions.length) {
                positions = Arrays.copyOf(positions, positions.length * 2);
            }
            positions[text.length()] = originalPosition + index * step;
            text.append(piece.charAt(index));
        }
    }

    String text() {
        return text.toString();
    }

    int[] positions() {
        return Arrays.copyOf(positions, text.length());
    }
}
