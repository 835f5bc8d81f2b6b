package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * PostgreSQL's text edits, counted in characters of the UTF-8 bytes: left, right, reverse, initcap,
 * btrim/ltrim/rtrim (also TRIM's three forms), translate and overlay. Strict: NULL in, NULL out.
 * Results that are a slice of the input are copied from it in place; the others are built in a
 * reused buffer, so a row allocates nothing once the buffers have grown.
 */
final class TextEditEvaluator extends Evaluator {
    private static final byte[] SPACE = {(byte) ' '};

    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector[] argumentVectors;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final ByteBuilder buffer = new ByteBuilder();
    private final NonNullPositions nonNull = new NonNullPositions();

    /** {@code arguments}: the text first (text, not character(n)), then the function's others in SQL order. */
    TextEditEvaluator(Function function, Evaluator[] arguments) {
        super(DataType.TEXT);
        this.function = function;
        this.arguments = arguments;
        this.argumentVectors = new ColumnVector[arguments.length];
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        if (count == 0) {
            // Every row had a NULL argument; an untyped NULL's vector is not of the argument's kind.
            return result;
        }
        BytesVector text = (BytesVector) argumentVectors[0];
        switch (function) {
            case LEFT, RIGHT -> slice(text, (LongVector) argumentVectors[1], selection, count, result);
            case REVERSE -> reverse(text, selection, count, result);
            case INITCAP -> initcap(text, selection, count, result);
            case BTRIM, LTRIM, RTRIM -> trim(text, arguments.length > 1 ? (BytesVector) argumentVectors[1] : null, selection, count, result);
            case TRANSLATE -> translate(text, (BytesVector) argumentVectors[1], (BytesVector) argumentVectors[2], selection, count, result);
            case OVERLAY -> overlay(text, (BytesVector) argumentVectors[1], (LongVector) argumentVectors[2],
                    arguments.length > 3 ? (LongVector) argumentVectors[3] : null, selection, count, result);
            default -> throw new IllegalStateException("not a text edit: " + function);
        }
        return result;
    }

    /**
     * left(text, n): the first n characters, all but the last -n when n is negative; right(text, n):
     * the last n, all but the first -n when negative.
     */
    private void slice(BytesVector text, LongVector counts, int[] selection, int count, BytesVector result) {
        byte[] data = text.data();
        long[] values = counts.values();
        boolean left = function == Function.LEFT;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = text.offset(position);
            int length = text.length(position);
            long n = values[position];
            long skipped;
            long kept;
            if (n >= 0) {
                skipped = left ? 0 : Math.max(0, Utf8.characterCount(data, offset, length) - n);
                kept = left ? n : Long.MAX_VALUE;
            } else {
                skipped = left ? 0 : -n;
                kept = left ? Math.max(0, Utf8.characterCount(data, offset, length) + n) : Long.MAX_VALUE;
            }
            int from = Utf8.byteOffsetOf(data, offset, length, skipped);
            int to = kept == Long.MAX_VALUE ? length : Utf8.byteOffsetOf(data, offset, length, kept);
            result.set(position, data, offset + from, Math.max(0, to - from));
        }
    }

    /** reverse(text): the characters in reverse order, each character's bytes kept in order. */
    private static void reverse(BytesVector text, int[] selection, int count, BytesVector result) {
        byte[] data = text.data();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = text.offset(position);
            int length = text.length(position);
            int target = result.reserve(position, length);
            byte[] out = result.data();
            int end = offset + length;
            int write = target + length;
            int characterStart = offset;
            while (characterStart < end) {
                int characterEnd = Utf8.characterEnd(data, characterStart, end);
                int size = characterEnd - characterStart;
                write -= size;
                System.arraycopy(data, characterStart, out, write, size);
                characterStart = characterEnd;
            }
        }
    }

    /**
     * initcap(text): each word's first character upper case and the others lower case, a word being
     * a run of letters and digits (PostgreSQL's iswalnum in a UTF-8 locale).
     */
    private void initcap(BytesVector text, int[] selection, int count, BytesVector result) {
        byte[] data = text.data();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = text.offset(position);
            int length = text.length(position);
            int end = offset + length;
            if (Utf8.isAscii(data, offset, length)) {
                int target = result.reserve(position, length);
                byte[] out = result.data();
                boolean inWord = false;
                for (int at = offset; at < end; at++) {
                    byte character = data[at];
                    boolean lower = character >= 'a' && character <= 'z';
                    boolean upper = character >= 'A' && character <= 'Z';
                    if (inWord && upper) {
                        character += 32;
                    } else if (!inWord && lower) {
                        character -= 32;
                    }
                    out[target + at - offset] = character;
                    inWord = lower || upper || character >= '0' && character <= '9';
                }
                continue;
            }
            buffer.clear();
            boolean inWord = false;
            int at = offset;
            while (at < end) {
                int characterEnd = Utf8.characterEnd(data, at, end);
                int codePoint = Utf8.codePoint(data, at, characterEnd);
                Utf8.append(buffer, inWord ? Character.toLowerCase(codePoint) : Character.toUpperCase(codePoint));
                inWord = Character.isLetterOrDigit(codePoint);
                at = characterEnd;
            }
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
    }

    /**
     * btrim/ltrim/rtrim(text[, characters]): the longest prefix and/or suffix made only of the given
     * characters (a space by default) removed. Characters are compared whole, so a multi-byte one in
     * the set never matches a byte of another.
     */
    private void trim(BytesVector text, BytesVector sets, int[] selection, int count, BytesVector result) {
        byte[] data = text.data();
        boolean leading = function != Function.RTRIM;
        boolean trailing = function != Function.LTRIM;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            byte[] set = sets == null ? SPACE : sets.data();
            int setOffset = sets == null ? 0 : sets.offset(position);
            int setLength = sets == null ? 1 : sets.length(position);
            int start = text.offset(position);
            int end = start + text.length(position);
            if (Utf8.isAscii(set, setOffset, setLength)) {
                // An ASCII byte is a whole character in UTF-8: byte comparisons are exact.
                while (leading && start < end && contains(set, setOffset, setLength, data[start])) {
                    start++;
                }
                while (trailing && end > start && contains(set, setOffset, setLength, data[end - 1])) {
                    end--;
                }
            } else {
                while (leading && start < end) {
                    int characterEnd = Utf8.characterEnd(data, start, end);
                    if (!containsCharacter(set, setOffset, setLength, data, start, characterEnd)) {
                        break;
                    }
                    start = characterEnd;
                }
                while (trailing && end > start) {
                    int characterStart = Utf8.characterStart(data, start, end);
                    if (!containsCharacter(set, setOffset, setLength, data, characterStart, end)) {
                        break;
                    }
                    end = characterStart;
                }
            }
            result.set(position, data, start, end - start);
        }
    }

    private static boolean contains(byte[] set, int offset, int length, byte value) {
        for (int index = offset; index < offset + length; index++) {
            if (set[index] == value) {
                return true;
            }
        }
        return false;
    }

    /** Whether the character {@code data[start, end)} is one of the characters of {@code set[offset, offset + length)}. */
    private static boolean containsCharacter(byte[] set, int offset, int length, byte[] data, int start, int end) {
        return characterIndex(set, offset, length, data, start, end) >= 0;
    }

    /** The 0-based index of the character {@code data[start, end)} among the characters of the set, or -1. */
    private static int characterIndex(byte[] set, int offset, int length, byte[] data, int start, int end) {
        int size = end - start;
        int setEnd = offset + length;
        int characterNumber = 0;
        int at = offset;
        while (at < setEnd) {
            int characterEnd = Utf8.characterEnd(set, at, setEnd);
            if (characterEnd - at == size && java.util.Arrays.equals(set, at, characterEnd, data, start, end)) {
                return characterNumber;
            }
            characterNumber++;
            at = characterEnd;
        }
        return -1;
    }

    /**
     * translate(text, from, to): each character found in from replaced by the character at the same
     * place in to (the first occurrence in from counts), or removed when to is shorter.
     */
    private void translate(BytesVector text, BytesVector from, BytesVector to, int[] selection, int count, BytesVector result) {
        byte[] data = text.data();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = text.offset(position);
            int end = offset + text.length(position);
            byte[] fromData = from.data();
            int fromOffset = from.offset(position);
            int fromLength = from.length(position);
            byte[] toData = to.data();
            int toOffset = to.offset(position);
            int toLength = to.length(position);
            buffer.clear();
            int at = offset;
            while (at < end) {
                int characterEnd = Utf8.characterEnd(data, at, end);
                int found = characterIndex(fromData, fromOffset, fromLength, data, at, characterEnd);
                if (found < 0) {
                    buffer.append(data, at, characterEnd - at);
                } else {
                    int replacement = Utf8.byteOffsetOf(toData, toOffset, toLength, found);
                    if (replacement < toLength) {
                        int replacementEnd = Utf8.characterEnd(toData, toOffset + replacement, toOffset + toLength);
                        buffer.append(toData, toOffset + replacement, replacementEnd - toOffset - replacement);
                    }
                }
                at = characterEnd;
            }
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
    }

    /**
     * overlay(text placing replacement from start [for count]): the text's characters before start,
     * the replacement, then the text from character start + count on (count defaults to the
     * replacement's length). PostgreSQL's errors: a start below 1 is 22011 "negative substring length
     * not allowed" (the SQL standard defines overlay by substrings), start + count beyond an integer
     * 22003.
     */
    private void overlay(BytesVector text, BytesVector replacements, LongVector starts, LongVector counts, int[] selection,
                         int count, BytesVector result) {
        byte[] data = text.data();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = text.offset(position);
            int length = text.length(position);
            byte[] replacement = replacements.data();
            int replacementOffset = replacements.offset(position);
            int replacementLength = replacements.length(position);
            long start = starts.values()[position];
            long removed = counts == null ? Utf8.characterCount(replacement, replacementOffset, replacementLength)
                    : counts.values()[position];
            if (start <= 0) {
                throw new ParallaxException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
            }
            long resume = start + removed;
            if (resume > Integer.MAX_VALUE || resume < Integer.MIN_VALUE) {
                throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
            }
            int head = Utf8.byteOffsetOf(data, offset, length, start - 1);
            // PostgreSQL's substring(text, resume): from character resume on, the whole text when resume is below 1.
            int tail = resume <= 1 ? 0 : Utf8.byteOffsetOf(data, offset, length, resume - 1);
            int target = result.reserve(position, head + replacementLength + length - tail);
            byte[] out = result.data();
            System.arraycopy(data, offset, out, target, head);
            System.arraycopy(replacement, replacementOffset, out, target + head, replacementLength);
            System.arraycopy(data, offset + tail, out, target + head + replacementLength, length - tail);
        }
    }
}
