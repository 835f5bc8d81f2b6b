package dev.parallax.planner.query.parse;

import java.util.List;

/**
 * SQL text rewritten into the dialect Calcite's core parser reads, with what is needed to talk
 * about the original: {@code originalPositions[i]} is the 0-based offset in the original text of
 * rewritten character i, and {@code parameterNumbers.get(k)} the PostgreSQL parameter number
 * ({@code $n}, 1-based) of the k-th {@code ?} in the rewritten text.
 */
public record RewrittenStatement(String sql, int[] originalPositions, List<Integer> parameterNumbers) {
    public RewrittenStatement {
        parameterNumbers = List.copyOf(parameterNumbers);
    }

    /** The 1-based position in the original statement of the 1-based rewritten line and column Calcite reports. */
    public int originalPosition(int line, int column) {
        int currentLine = 1;
        int offset = 0;
        while (currentLine < line && offset < sql.length()) {
            if (sql.charAt(offset) == '\n') {
                currentLine++;
            }
            offset++;
        }
        offset += column - 1;
        if (originalPositions.length == 0) {
            return 1;
        }
        offset = Math.max(0, Math.min(offset, originalPositions.length - 1));
        return originalPositions[offset] + 1;
    }
}
