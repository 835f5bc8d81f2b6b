package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.LikePattern;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * Text functions on UTF-8 bytes: CONCAT (||), SUBSTRING(s, from[, for]) in characters, UPPER,
 * LOWER, LENGTH/CHAR_LENGTH,
 * POSITION(substring, string), MD5, REPLACE(string, from, to), REPEAT(string, count) and
 * LPAD/RPAD(string, length[, fill]), SPLIT_PART(string, delimiter, field). Strict: NULL in, NULL out. ASCII-only values take byte
 * loops; others go through Java strings.
 */
final class TextFunctionEvaluator extends Evaluator {
    private static final byte[] SPACE = {(byte) ' '};
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** PostgreSQL's largest value: MaxAllocSize (1 GB - 1) less the 4-byte varlena header. */
    private static final long MAXIMUM_VALUE_BYTES = 0x3fffffffL - 4;

    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector output;
    private final boolean paddedInput;
    private final MessageDigest md5;
    private final byte[] digest = new byte[16];
    private final ColumnVector[] argumentVectors;
    private final boolean[][] argumentNulls;
    private final NonNullPositions nonNull = new NonNullPositions();

    TextFunctionEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        super(resultType);
        this.function = function;
        this.arguments = arguments;
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
        this.paddedInput = arguments[0].type().kind() == TypeKind.CHAR;
        this.argumentVectors = new ColumnVector[arguments.length];
        this.argumentNulls = new boolean[arguments.length][];
        try {
            this.md5 = function == Function.MD5 ? MessageDigest.getInstance("MD5") : null;
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("MD5 is required of every Java platform", missing);
        }
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        if (count == 0) {
            // Every row had a NULL argument; an untyped NULL's vector is not text.
            return result;
        }
        BytesVector text = (BytesVector) argumentVectors[0];
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            byte[] data = text.data();
            int offset = text.offset(position);
            int length = text.length(position);
            switch (function) {
                case CONCAT -> {
                    BytesVector right = (BytesVector) argumentVectors[1];
                    BytesVector out = (BytesVector) result;
                    int rightLength = right.length(position);
                    int target = out.reserve(position, length + rightLength);
                    System.arraycopy(data, offset, out.data(), target, length);
                    System.arraycopy(right.data(), right.offset(position), out.data(), target + length, rightLength);
                }
                case SUBSTRING -> substring((BytesVector) result, position, data, offset, length);
                case UPPER, LOWER -> changeCase((BytesVector) result, position, data, offset, length);
                case LENGTH, CHAR_LENGTH -> {
                    if (paddedInput) {
                        while (length > 0 && data[offset + length - 1] == ' ') {
                            length--;
                        }
                    }
                    ((LongVector) result).values()[position] = Utf8.characterCount(data, offset, length);
                }
                case POSITION -> {
                    BytesVector haystack = (BytesVector) argumentVectors[1];
                    int found = LikePattern.indexOf(haystack.data(), haystack.offset(position), haystack.length(position),
                            text.getBytes(position));
                    ((LongVector) result).values()[position] = found < 0 ? 0
                            : Utf8.characterCount(haystack.data(), haystack.offset(position), found) + 1;
                }
                case MD5 -> {
                    md5.update(data, offset, length);
                    try {
                        // Into a reused array: digest() would allocate one per row.
                        md5.digest(digest, 0, digest.length);
                    } catch (java.security.DigestException impossible) {
                        throw new IllegalStateException(impossible);
                    }
                    BytesVector out = (BytesVector) result;
                    int target = out.reserve(position, 32);
                    byte[] outData = out.data();
                    for (int digit = 0; digit < 16; digit++) {
                        outData[target + 2 * digit] = HEX[(digest[digit] >> 4) & 0xF];
                        outData[target + 2 * digit + 1] = HEX[digest[digit] & 0xF];
                    }
                }
                case REPLACE -> replace((BytesVector) result, position, data, offset, length,
                        (BytesVector) argumentVectors[1], (BytesVector) argumentVectors[2]);
                case REPEAT -> repeat((BytesVector) result, position, data, offset, length,
                        ((LongVector) argumentVectors[1]).values()[position]);
                case LPAD, RPAD -> {
                    if (paddedInput) {
                        while (length > 0 && data[offset + length - 1] == ' ') {
                            length--;
                        }
                    }
                    pad((BytesVector) result, position, data, offset, length, ((LongVector) argumentVectors[1]).values()[position]);
                }
                case SPLIT_PART -> splitPart((BytesVector) result, position, data, offset, length,
                        (BytesVector) argumentVectors[1], ((LongVector) argumentVectors[2]).values()[position]);
                default -> throw new IllegalStateException("not a text function: " + function);
            }
        }
        return result;
    }

    /** PostgreSQL's replace(string, from, to): every occurrence of from, left to right; an empty from replaces nothing. */
    private static void replace(BytesVector out, int position, byte[] data, int offset, int length, BytesVector from, BytesVector to) {
        byte[] search = from.getBytes(position);
        if (search.length == 0) {
            System.arraycopy(data, offset, out.data(), out.reserve(position, length), length);
            return;
        }
        byte[] replacement = to.getBytes(position);
        int occurrences = 0;
        for (int found = indexOf(data, offset, length, search, 0); found >= 0; found = indexOf(data, offset, length, search, found + search.length)) {
            occurrences++;
        }
        int target = out.reserve(position, length + occurrences * (replacement.length - search.length));
        byte[] outData = out.data();
        int copied = 0;
        for (int found = indexOf(data, offset, length, search, 0); found >= 0; found = indexOf(data, offset, length, search, found + search.length)) {
            System.arraycopy(data, offset + copied, outData, target, found - copied);
            target += found - copied;
            System.arraycopy(replacement, 0, outData, target, replacement.length);
            target += replacement.length;
            copied = found + search.length;
        }
        System.arraycopy(data, offset + copied, outData, target, length - copied);
    }

    /**
     * PostgreSQL 15's split_part(string, delimiter, field): the pieces between non-overlapping
     * delimiters, the field-th from the start, or from the end when negative; the empty text past
     * either end, for an empty string, and (when the delimiter is empty or absent) for any field but
     * 1 and -1, which give the whole string. Field 0 raises 22023 whatever the string.
     */
    private static void splitPart(BytesVector out, int position, byte[] data, int offset, int length, BytesVector delimiters,
                                  long field) {
        if (field == 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "field position must not be zero");
        }
        // The delimiter read in place: no copy per row.
        byte[] delimiter = delimiters.data();
        int delimiterOffset = delimiters.offset(position);
        int delimiterLength = delimiters.length(position);
        int first = delimiterLength == 0 ? -1 : indexOf(data, offset, length, delimiter, delimiterOffset, delimiterLength, 0);
        if (length == 0 || first < 0) {
            out.set(position, data, offset, field == 1 || field == -1 ? length : 0);
            return;
        }
        if (field < 0) {
            long fields = 2;
            for (int found = indexOf(data, offset, length, delimiter, delimiterOffset, delimiterLength, first + delimiterLength);
                 found >= 0; found = indexOf(data, offset, length, delimiter, delimiterOffset, delimiterLength, found + delimiterLength)) {
                fields++;
            }
            field += fields + 1;
            if (field <= 0) {
                out.set(position, data, offset, 0);
                return;
            }
        }
        int start = 0;
        int end = first;
        for (long piece = 1; piece < field; piece++) {
            if (end == length) {
                out.set(position, data, offset, 0);
                return;
            }
            start = end + delimiterLength;
            int next = indexOf(data, offset, length, delimiter, delimiterOffset, delimiterLength, start);
            end = next < 0 ? length : next;
        }
        out.set(position, data, offset + start, end - start);
    }

    /**
     * PostgreSQL's repeat(string, count): nothing for a count below 1; 54000 "requested length too
     * large" past its 1 GB value limit (MaxAllocSize less the 4-byte header), as PostgreSQL.
     */
    private static void repeat(BytesVector out, int position, byte[] data, int offset, int length, long count) {
        long total = count <= 0 ? 0 : (long) length * count;
        if (total > MAXIMUM_VALUE_BYTES) {
            throw new ParallaxException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
        }
        int target = out.reserve(position, (int) total);
        byte[] outData = out.data();
        for (long copy = 0; copy < count && length > 0; copy++) {
            System.arraycopy(data, offset, outData, target, length);
            target += length;
        }
    }

    /**
     * PostgreSQL's lpad/rpad: the text cut to {@code characters} characters, or filled up to them
     * with the fill repeated (its last copy cut), on the left for LPAD and the right for RPAD; a
     * negative length gives the empty text, an empty fill only cuts. The length is an integer
     * (22003 beyond one); 54000 past the 1 GB value limit.
     */
    private void pad(BytesVector out, int position, byte[] data, int offset, int length, long characters) {
        if (characters > Integer.MAX_VALUE || characters < Integer.MIN_VALUE) {
            throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        }
        long wanted = Math.max(0, characters);
        byte[] fillData = SPACE;
        int fillOffset = 0;
        int fillLength = 1;
        if (argumentVectors.length > 2) {
            BytesVector fill = (BytesVector) argumentVectors[2];
            fillData = fill.data();
            fillOffset = fill.offset(position);
            fillLength = fill.length(position);
        }
        long textCharacters = Utf8.characterCount(data, offset, length);
        int keptBytes = textCharacters > wanted ? Utf8.byteOffsetOf(data, offset, length, wanted) : length;
        long padCharacters = fillLength == 0 ? 0 : wanted - Math.min(textCharacters, wanted);
        int fillCharacters = Utf8.characterCount(fillData, fillOffset, fillLength);
        long wholeCopies = fillCharacters == 0 ? 0 : padCharacters / fillCharacters;
        int restBytes = fillCharacters == 0 ? 0 : Utf8.byteOffsetOf(fillData, fillOffset, fillLength, padCharacters % fillCharacters);
        long total = keptBytes + wholeCopies * fillLength + restBytes;
        if (total > MAXIMUM_VALUE_BYTES) {
            throw new ParallaxException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
        }
        int target = out.reserve(position, (int) total);
        byte[] outData = out.data();
        if (function == Function.RPAD) {
            System.arraycopy(data, offset, outData, target, keptBytes);
            target += keptBytes;
        }
        for (long copy = 0; copy < wholeCopies; copy++) {
            System.arraycopy(fillData, fillOffset, outData, target, fillLength);
            target += fillLength;
        }
        System.arraycopy(fillData, fillOffset, outData, target, restBytes);
        target += restBytes;
        if (function == Function.LPAD) {
            System.arraycopy(data, offset, outData, target, keptBytes);
        }
    }

    /** The first index at or after {@code from} (relative to offset) where {@code search} occurs in the range, or -1. */
    private static int indexOf(byte[] data, int offset, int length, byte[] search, int from) {
        return indexOf(data, offset, length, search, 0, search.length, from);
    }

    /** {@link #indexOf(byte[], int, int, byte[], int)} of the search text {@code search[searchOffset, searchOffset + searchLength)}. */
    private static int indexOf(byte[] data, int offset, int length, byte[] search, int searchOffset, int searchLength, int from) {
        int found = LikePattern.indexOf(data, offset + from, length - from, search, searchOffset, searchLength);
        return found < 0 ? -1 : found + from;
    }

    private void substring(BytesVector out, int position, byte[] data, int offset, int length) {
        long start = ((LongVector) argumentVectors[1]).values()[position];
        long end = Long.MAX_VALUE;
        if (argumentVectors.length > 2) {
            long count = ((LongVector) argumentVectors[2]).values()[position];
            if (count < 0) {
                throw new ParallaxException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
            }
            end = start + count;
        }
        // SQL positions are 1-based; characters before position 1 are simply absent.
        long first = Math.max(start, 1) - 1;
        long last = end - 1;
        if (last <= first) {
            out.set(position, data, offset, 0);
            return;
        }
        int from = Utf8.byteOffsetOf(data, offset, length, first);
        int to = end == Long.MAX_VALUE ? length : Utf8.byteOffsetOf(data, offset, length, last);
        out.set(position, data, offset + from, Math.max(0, to - from));
    }

    private void changeCase(BytesVector out, int position, byte[] data, int offset, int length) {
        boolean upper = function == Function.UPPER;
        boolean ascii = true;
        for (int index = offset; index < offset + length && ascii; index++) {
            ascii = data[index] >= 0;
        }
        if (!ascii) {
            String value = new String(data, offset, length, StandardCharsets.UTF_8);
            out.set(position, (upper ? value.toUpperCase(Locale.ROOT) : value.toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8));
            return;
        }
        int target = out.reserve(position, length);
        byte[] outData = out.data();
        for (int index = 0; index < length; index++) {
            byte character = data[offset + index];
            if (upper && character >= 'a' && character <= 'z') {
                character -= 32;
            } else if (!upper && character >= 'A' && character <= 'Z') {
                character += 32;
            }
            outData[target + index] = character;
        }
    }
}
