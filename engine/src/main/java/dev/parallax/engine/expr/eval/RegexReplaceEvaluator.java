package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PosixRegex;
import dev.parallax.engine.type.RegexFlags;
import dev.parallax.engine.type.Utf8CharSequence;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;

/**
 * PostgreSQL 15's {@code regexp_replace(source, pattern, replacement[, start[, n]][, flags])}: the
 * first match of the pattern (an advanced RE, {@link PosixRegex}), every match with flag g, or the
 * n-th (all for n = 0; g is then ignored), searched from character start on, replaced; in the
 * replacement {@code \1}..{@code \9} stand for the groups (empty when a group did not take part or
 * does not exist), {@code \&} for the whole match, {@code \\} for one backslash, and any other
 * backslash is copied. A constant pattern and flags are compiled and parsed once; the text goes
 * through a reused decoded view and the result is built in a reused buffer, so a row allocates
 * nothing but the growth of those. Strict: NULL in, NULL out.
 */
final class RegexReplaceEvaluator extends Evaluator {
    private final RegexFlags constantFlags;
    private final boolean occurrenceGiven;
    private final RegexCache patterns;
    private final Utf8CharSequence text = new Utf8CharSequence();
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final Evaluator[] arguments;
    private final ColumnVector[] argumentVectors = new ColumnVector[6];
    private final ByteBuilder buffer = new ByteBuilder();
    private final NonNullPositions nonNull = new NonNullPositions();

    /** {@code start}, {@code occurrence} (n) and {@code flags} null when not given. */
    RegexReplaceEvaluator(Evaluator source, Evaluator pattern, Evaluator replacement, Evaluator start, Evaluator occurrence,
                          Evaluator flags) {
        super(DataType.TEXT);
        this.arguments = new Evaluator[] {source, pattern, replacement, start, occurrence, flags};
        this.occurrenceGiven = occurrence != null;
        this.constantFlags = flags == null ? RegexFlags.NONE
                : flags instanceof ConstantEvaluator constant && !constant.isNull()
                ? RegexFlags.parse(new String(constant.bytesValue(), StandardCharsets.UTF_8), true) : null;
        this.patterns = new RegexCache(pattern, constantFlags);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        count = nonNull.evaluateArguments(arguments, argumentVectors, input, selection, count, result);
        selection = nonNull.selection();
        BytesVector sources = (BytesVector) argumentVectors[0];
        BytesVector patternTexts = (BytesVector) argumentVectors[1];
        BytesVector replacements = (BytesVector) argumentVectors[2];
        long[] starts = arguments[3] == null ? null : ((LongVector) argumentVectors[3]).values();
        long[] occurrences = occurrenceGiven ? ((LongVector) argumentVectors[4]).values() : null;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            long start = starts == null ? 1 : starts[position];
            if (start <= 0) {
                throw invalidParameter("start", start);
            }
            long occurrence = occurrences == null ? 1 : occurrences[position];
            if (occurrence < 0) {
                throw invalidParameter("n", occurrence);
            }
            RegexFlags rowFlags = constantFlags != null ? constantFlags : patterns.rowFlags((BytesVector) argumentVectors[5], position);
            if (!occurrenceGiven && rowFlags.global()) {
                occurrence = 0;
            }
            Matcher matcher = patterns.matcher(patternTexts, position, rowFlags);
            byte[] data = sources.data();
            int offset = sources.offset(position);
            text.load(data, offset, sources.length(position));
            buffer.clear();
            int copied = 0;
            int from = start == 1 ? 0 : charIndexOfCharacter(start - 1);
            if (from >= 0) {
                // The search starts at character start, the text before it still seen by lookbehind; ^ stays the text's start.
                matcher.reset(text).region(from, text.length()).useTransparentBounds(true).useAnchoringBounds(false);
                long matches = 0;
                while (matcher.find()) {
                    if (occurrence != 0 && ++matches < occurrence) {
                        continue;
                    }
                    append(data, offset + text.byteOffset(copied), text.byteOffset(matcher.start()) - text.byteOffset(copied));
                    substitute(matcher, data, offset, replacements.data(), replacements.offset(position), replacements.length(position));
                    copied = matcher.end();
                    if (occurrence != 0) {
                        break;
                    }
                }
            }
            append(data, offset + text.byteOffset(copied), text.byteOffset(text.length()) - text.byteOffset(copied));
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
    }

    private static ParallaxException invalidParameter(String name, long value) {
        return ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": %d", name, value);
    }

    /** The char index of the character (code point) number {@code characters}, 0-based, or -1 past the text's end. */
    private int charIndexOfCharacter(long characters) {
        int index = 0;
        for (long seen = 0; seen < characters; seen++) {
            if (index >= text.length()) {
                return -1;
            }
            index += Character.isHighSurrogate(text.charAt(index)) ? 2 : 1;
        }
        return index <= text.length() ? index : -1;
    }

    /** Appends the replacement of one match, its group references filled in from the source bytes. */
    private void substitute(Matcher matcher, byte[] source, int sourceOffset, byte[] data, int offset, int length) {
        int end = offset + length;
        int copied = offset;
        for (int index = offset; index < end - 1; index++) {
            if (data[index] != '\\') {
                continue;
            }
            byte next = data[index + 1];
            int group;
            if (next >= '1' && next <= '9') {
                group = next - '0';
            } else if (next == '&') {
                group = 0;
            } else if (next == '\\') {
                append(data, copied, index + 1 - copied);
                copied = index + 2;
                index++;
                continue;
            } else {
                continue;
            }
            append(data, copied, index - copied);
            if (group <= matcher.groupCount() && matcher.start(group) >= 0) {
                int from = text.byteOffset(matcher.start(group));
                append(source, sourceOffset + from, text.byteOffset(matcher.end(group)) - from);
            }
            copied = index + 2;
            index++;
        }
        append(data, copied, end - copied);
    }

    private void append(byte[] data, int offset, int length) {
        buffer.append(data, offset, length);
    }
}
