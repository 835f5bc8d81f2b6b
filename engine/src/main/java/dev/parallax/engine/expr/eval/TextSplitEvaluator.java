package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.LikePattern;
import dev.parallax.engine.type.RegexFlags;
import dev.parallax.engine.type.Utf8;
import dev.parallax.engine.type.Utf8CharSequence;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;

/**
 * Text split into a text[], each array encoded straight into the output vector's heap:
 * <ul>
 *   <li>string_to_array(text, delimiter[, null text]): the pieces between the delimiter's
 *   non-overlapping occurrences; a NULL delimiter splits into characters, an empty one keeps the
 *   text whole; the empty text gives an empty array; pieces equal to the null text are NULL. NULL
 *   only for a NULL text.</li>
 *   <li>regexp_split_to_array(text, pattern[, flags]): the pieces between the pattern's matches
 *   (PostgreSQL's setup_regexp_matches: a zero-length match at the start or end of the text, or
 *   right where the previous match ended, does not split); flag g is 22023. Strict. REGEXP_SPLIT_TO_TABLE is the
 *   same array, for regexp_split_to_table to unnest.</li>
 * </ul>
 */
final class TextSplitEvaluator extends Evaluator {
    private static final DataType TEXT_ARRAY = DataType.array(DataType.TEXT);

    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector[] argumentVectors;
    private final boolean[][] argumentNulls;
    private final BytesVector output = new BytesVector(TEXT_ARRAY, Evaluator.INITIAL_CAPACITY);
    private final ArrayValue.Builder builder = new ArrayValue.Builder(TEXT_ARRAY);
    private final Utf8CharSequence text = new Utf8CharSequence();
    private final RegexFlags constantFlags;
    private final RegexCache patterns;

    /** {@code arguments}: text, then delimiter and null text, or pattern and flags (all text). */
    TextSplitEvaluator(Function function, Evaluator[] arguments) {
        super(TEXT_ARRAY);
        this.function = function;
        this.arguments = arguments;
        this.argumentVectors = new ColumnVector[arguments.length];
        this.argumentNulls = new boolean[arguments.length][];
        if (function != Function.STRING_TO_ARRAY) {
            this.constantFlags = arguments.length < 3 ? RegexFlags.NONE
                    : arguments[2] instanceof ConstantEvaluator constant && !constant.isNull()
                    ? checked(RegexFlags.parse(new String(constant.bytesValue(), StandardCharsets.UTF_8), true)) : null;
            this.patterns = new RegexCache(arguments[1], constantFlags);
        } else {
            this.constantFlags = null;
            this.patterns = null;
        }
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        boolean strict = function != Function.STRING_TO_ARRAY;
        boolean[][] nulls = argumentNulls;
        for (int argument = 0; argument < arguments.length; argument++) {
            argumentVectors[argument] = arguments[argument].evaluate(input, selection, count);
            nulls[argument] = nullsOf(argumentVectors[argument]);
        }
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            boolean anyNull = isNull(nulls[0], position);
            for (int argument = 1; argument < arguments.length && strict; argument++) {
                anyNull |= isNull(nulls[argument], position);
            }
            if (anyNull) {
                result.setNull(position);
                continue;
            }
            BytesVector source = (BytesVector) argumentVectors[0];
            if (strict) {
                splitByPattern(source, position);
            } else {
                splitByDelimiter(source, position, isNull(nulls[1], position) ? null : (BytesVector) argumentVectors[1],
                        arguments.length < 3 || isNull(nulls[2], position) ? null : (BytesVector) argumentVectors[2]);
            }
            builder.buildInto(result, position, 1);
        }
        return result;
    }

    private void splitByDelimiter(BytesVector source, int position, BytesVector delimiters, BytesVector nullTexts) {
        byte[] data = source.data();
        int offset = source.offset(position);
        int length = source.length(position);
        if (length == 0) {
            return;
        }
        int end = offset + length;
        if (delimiters == null) {
            for (int at = offset; at < end; ) {
                int characterEnd = Utf8.characterEnd(data, at, end);
                addPiece(data, at, characterEnd, nullTexts, position);
                at = characterEnd;
            }
            return;
        }
        byte[] delimiter = delimiters.data();
        int delimiterOffset = delimiters.offset(position);
        int delimiterLength = delimiters.length(position);
        if (delimiterLength == 0) {
            addPiece(data, offset, end, nullTexts, position);
            return;
        }
        int start = offset;
        while (true) {
            int found = LikePattern.indexOf(data, start, end - start, delimiter, delimiterOffset, delimiterLength);
            if (found < 0) {
                addPiece(data, start, end, nullTexts, position);
                return;
            }
            addPiece(data, start, start + found, nullTexts, position);
            start += found + delimiterLength;
        }
    }

    /** Adds {@code data[start, end)} to the array, or NULL when it equals the null text. */
    private void addPiece(byte[] data, int start, int end, BytesVector nullTexts, int position) {
        if (nullTexts != null && Arrays.equals(data, start, end, nullTexts.data(), nullTexts.offset(position),
                nullTexts.offset(position) + nullTexts.length(position))) {
            builder.addNull();
        } else {
            builder.addBytes(data, start, end - start);
        }
    }

    private void splitByPattern(BytesVector source, int position) {
        RegexFlags flags = constantFlags != null ? constantFlags : checked(patterns.rowFlags((BytesVector) argumentVectors[2], position));
        Matcher matcher = patterns.matcher((BytesVector) argumentVectors[1], position, flags);
        byte[] data = source.data();
        int offset = source.offset(position);
        text.load(data, offset, source.length(position));
        int length = text.length();
        matcher.reset(text);
        int pieceStart = 0;
        int previousEnd = 0;
        int searchFrom = 0;
        while (searchFrom <= length && matcher.find(searchFrom)) {
            int matchStart = matcher.start();
            int matchEnd = matcher.end();
            if (matchStart < length && matchEnd > previousEnd) {
                builder.addBytes(data, offset + text.byteOffset(pieceStart), text.byteOffset(matchStart) - text.byteOffset(pieceStart));
                pieceStart = matchEnd;
            }
            previousEnd = matchEnd;
            searchFrom = matchStart == matchEnd ? matchEnd + 1 : matchEnd;
        }
        builder.addBytes(data, offset + text.byteOffset(pieceStart), text.byteOffset(length) - text.byteOffset(pieceStart));
    }

    /** PostgreSQL refuses g here: the split already uses every match. */
    private RegexFlags checked(RegexFlags flags) {
        if (flags.global()) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "%s() does not support the \"global\" option",
                    function == Function.REGEXP_SPLIT_TO_TABLE ? "regexp_split_to_table" : "regexp_split_to_array");
        }
        return flags;
    }
}
