package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A LIKE pattern compiled once: {@code %} any run, {@code _} one character, backslash escapes the
 * next character. Common shapes get a direct test on the UTF-8 bytes (exact, {@code prefix%},
 * {@code %suffix}, {@code %infix%}); others run a backtracking matcher that steps over whole
 * UTF-8 characters for {@code _}.
 */
public final class LikePattern {
    private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, SEGMENTS, GENERAL }

    private static final byte ANY_RUN = 0;
    private static final byte ANY_ONE = 1;
    private static final byte LITERAL = 2;

    private final Shape shape;
    private final byte[] literal;
    /** For GENERAL: per pattern element its kind, and the literal byte. */
    private final byte[] kinds;
    private final byte[] bytes;
    /** For SEGMENTS: the literal runs between the {@code %}s, in order. */
    private final byte[][] segments;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;

    private LikePattern(Shape shape, byte[] literal, byte[] kinds, byte[] bytes) {
        this(shape, literal, kinds, bytes, null, false, false);
    }

    private LikePattern(Shape shape, byte[] literal, byte[] kinds, byte[] bytes, byte[][] segments, boolean anchoredStart,
                        boolean anchoredEnd) {
        this.shape = shape;
        this.literal = literal;
        this.kinds = kinds;
        this.bytes = bytes;
        this.segments = segments;
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
    }

    /** Compiles a UTF-8 pattern; 22025 when it ends with the escape character. */
    public static LikePattern compile(byte[] pattern) {
        byte[] kinds = new byte[pattern.length];
        byte[] bytes = new byte[pattern.length];
        int elements = 0;
        for (int index = 0; index < pattern.length; index++) {
            byte character = pattern[index];
            if (character == '\\') {
                if (index + 1 >= pattern.length) {
                    throw new ParallaxException(SqlState.INVALID_ESCAPE_SEQUENCE, "LIKE pattern must not end with escape character");
                }
                kinds[elements] = LITERAL;
                bytes[elements++] = pattern[++index];
            } else if (character == '%') {
                if (elements == 0 || kinds[elements - 1] != ANY_RUN) {
                    kinds[elements++] = ANY_RUN;
                }
            } else if (character == '_') {
                kinds[elements++] = ANY_ONE;
            } else {
                kinds[elements] = LITERAL;
                bytes[elements++] = character;
            }
        }
        kinds = Arrays.copyOf(kinds, elements);
        bytes = Arrays.copyOf(bytes, elements);
        int first = 0;
        int last = elements;
        boolean leadingRun = elements > 0 && kinds[0] == ANY_RUN;
        boolean trailingRun = elements > (leadingRun ? 1 : 0) && kinds[elements - 1] == ANY_RUN;
        if (leadingRun) {
            first++;
        }
        if (trailingRun) {
            last--;
        }
        boolean literalMiddle = true;
        for (int index = first; index < last; index++) {
            literalMiddle &= kinds[index] == LITERAL;
        }
        if (literalMiddle) {
            byte[] literal = Arrays.copyOfRange(bytes, first, Math.max(first, last));
            Shape shape = leadingRun ? (trailingRun ? Shape.CONTAINS : Shape.SUFFIX) : (trailingRun ? Shape.PREFIX : Shape.EXACT);
            if (leadingRun && !trailingRun && elements == 1) {
                shape = Shape.CONTAINS; // a lone % matches everything
            }
            return new LikePattern(shape, literal, kinds, bytes);
        }
        boolean onlyLiteralsAndRuns = true;
        for (byte kind : kinds) {
            onlyLiteralsAndRuns &= kind != ANY_ONE;
        }
        if (onlyLiteralsAndRuns) {
            // 'a%b%c' shapes (Q13's '%special%requests%'): each literal run found leftmost after the
            // previous one, which is a match exactly when one exists; no backtracking.
            java.util.List<byte[]> runs = new java.util.ArrayList<>();
            int start = 0;
            for (int index = 0; index <= elements; index++) {
                if (index == elements || kinds[index] == ANY_RUN) {
                    if (index > start) {
                        runs.add(Arrays.copyOfRange(bytes, start, index));
                    }
                    start = index + 1;
                }
            }
            return new LikePattern(Shape.SEGMENTS, null, kinds, bytes, runs.toArray(new byte[0][]), !leadingRun, !trailingRun);
        }
        return new LikePattern(Shape.GENERAL, null, kinds, bytes);
    }

    private boolean matchesSegments(byte[] data, int offset, int length) {
        int position = offset;
        int end = offset + length;
        int first = 0;
        int last = segments.length;
        if (anchoredStart) {
            byte[] head = segments[0];
            if (length < head.length || !Arrays.equals(data, offset, offset + head.length, head, 0, head.length)) {
                return false;
            }
            position += head.length;
            first = 1;
        }
        if (anchoredEnd) {
            byte[] tail = segments[segments.length - 1];
            if (end - position < tail.length || !Arrays.equals(data, end - tail.length, end, tail, 0, tail.length)) {
                return false;
            }
            end -= tail.length;
            last--;
        }
        for (int index = first; index < last; index++) {
            byte[] segment = segments[index];
            int found = indexOf(data, position, end - position, segment);
            if (found < 0) {
                return false;
            }
            position += found + segment.length;
        }
        return true;
    }

    public static LikePattern compile(String pattern) {
        return compile(pattern.getBytes(StandardCharsets.UTF_8));
    }

    /** True when the UTF-8 value {@code data[offset, offset + length)} matches. */
    public boolean matches(byte[] data, int offset, int length) {
        return switch (shape) {
            case EXACT -> length == literal.length && Arrays.equals(data, offset, offset + length, literal, 0, literal.length);
            case PREFIX -> length >= literal.length && Arrays.equals(data, offset, offset + literal.length, literal, 0, literal.length);
            case SUFFIX -> length >= literal.length
                    && Arrays.equals(data, offset + length - literal.length, offset + length, literal, 0, literal.length);
            case CONTAINS -> indexOf(data, offset, length, literal) >= 0;
            case SEGMENTS -> matchesSegments(data, offset, length);
            case GENERAL -> matchFrom(data, offset, offset + length, 0);
        };
    }

    /** Position of {@code needle} in the range, relative to {@code offset}, or -1. */
    public static int indexOf(byte[] data, int offset, int length, byte[] needle) {
        return indexOf(data, offset, length, needle, 0, needle.length);
    }

    /** {@link #indexOf(byte[], int, int, byte[])} of the needle {@code needle[needleOffset, needleOffset + needleLength)}. */
    public static int indexOf(byte[] data, int offset, int length, byte[] needle, int needleOffset, int needleLength) {
        if (needleLength == 0) {
            return 0;
        }
        byte first = needle[needleOffset];
        int lastStart = offset + length - needleLength;
        for (int start = offset; start <= lastStart; start++) {
            if (data[start] == first && Arrays.equals(data, start, start + needleLength, needle, needleOffset, needleOffset + needleLength)) {
                return start - offset;
            }
        }
        return -1;
    }

    private boolean matchFrom(byte[] data, int position, int end, int element) {
        while (element < kinds.length) {
            byte kind = kinds[element];
            if (kind == ANY_RUN) {
                if (element == kinds.length - 1) {
                    return true;
                }
                for (int start = position; start <= end; start = nextCharacter(data, start, end)) {
                    if (matchFrom(data, start, end, element + 1)) {
                        return true;
                    }
                    if (start == end) {
                        break;
                    }
                }
                return false;
            }
            if (position >= end) {
                return false;
            }
            if (kind == ANY_ONE) {
                position = nextCharacter(data, position, end);
            } else {
                if (data[position] != bytes[element]) {
                    return false;
                }
                position++;
            }
            element++;
        }
        return position == end;
    }

    private static int nextCharacter(byte[] data, int position, int end) {
        position++;
        while (position < end && (data[position] & 0xC0) == 0x80) {
            position++;
        }
        return position;
    }
}
