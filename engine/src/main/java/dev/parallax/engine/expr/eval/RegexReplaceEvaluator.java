package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PosixRegex;
import dev.parallax.engine.type.RegexFlags;
import dev.parallax.engine.type.Utf8CharSequence;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;

/**
 * PostgreSQL's {@code regexp_replace(source, pattern, replacement[, flags])}: the first match of
 * the pattern (an advanced RE, {@link PosixRegex}), or every match with flag g, replaced; in the
 * replacement {@code \1}..{@code \9} stand for the groups (empty when a group did not take part or
 * does not exist), {@code \&} for the whole match, {@code \\} for one backslash, and any other
 * backslash is copied. A constant pattern and flags are compiled and parsed once; the text goes
 * through a reused decoded view and the result is built in a reused buffer, so a row allocates
 * nothing but the growth of those. Strict: NULL in, NULL out.
 */
final class RegexReplaceEvaluator extends Evaluator {
    private final Evaluator source;
    private final Evaluator pattern;
    private final Evaluator replacement;
    private final Evaluator flags;
    private final RegexFlags constantFlags;
    private final RegexCache patterns;
    private final Utf8CharSequence text = new Utf8CharSequence();
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final Evaluator[] arguments;
    private final BytesVector[] argumentVectors = new BytesVector[4];
    private final ByteBuilder buffer = new ByteBuilder();
    private byte[] lastFlagsText;
    private RegexFlags lastFlags;
    private final NonNullPositions nonNull = new NonNullPositions();

    /** {@code flags} null: none given. */
    RegexReplaceEvaluator(Evaluator source, Evaluator pattern, Evaluator replacement, Evaluator flags) {
        super(DataType.TEXT);
        this.source = source;
        this.pattern = pattern;
        this.replacement = replacement;
        this.flags = flags;
        this.arguments = new Evaluator[] {source, pattern, replacement, flags};
        this.constantFlags = flags == null ? RegexFlags.NONE
                : flags instanceof ConstantEvaluator constant && !constant.isNull()
                ? RegexFlags.parse(new String(constant.bytesValue(), StandardCharsets.UTF_8), true) : null;
        this.patterns = new RegexCache(pattern, constantFlags);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        for (int argument = 0; argument < arguments.length; argument++) {
            if (arguments[argument] == null) {
                continue;
            }
            argumentVectors[argument] = (BytesVector) arguments[argument].evaluate(input, selection, count);
            boolean[] nulls = nullsOf(argumentVectors[argument]);
            if (nulls != null) {
                count = nonNull.narrow(nulls, input, selection, count, result);
                selection = nonNull.positions();
            }
        }
        BytesVector sources = argumentVectors[0];
        BytesVector replacements = argumentVectors[2];
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            RegexFlags rowFlags = constantFlags != null ? constantFlags : flagsAt(argumentVectors[3], position);
            Matcher matcher = patterns.matcher(argumentVectors[1], position, rowFlags);
            byte[] data = sources.data();
            int offset = sources.offset(position);
            text.load(data, offset, sources.length(position));
            matcher.reset(text);
            buffer.clear();
            int copied = 0;
            while (matcher.find()) {
                append(data, offset + text.byteOffset(copied), text.byteOffset(matcher.start()) - text.byteOffset(copied));
                substitute(matcher, data, offset, replacements.data(), replacements.offset(position), replacements.length(position));
                copied = matcher.end();
                if (!rowFlags.global()) {
                    break;
                }
            }
            append(data, offset + text.byteOffset(copied), text.byteOffset(text.length()) - text.byteOffset(copied));
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
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

    /** The flags of a row whose flags argument is not constant, parsed again only when they change. */
    private RegexFlags flagsAt(BytesVector flagTexts, int position) {
        byte[] data = flagTexts.data();
        int offset = flagTexts.offset(position);
        int length = flagTexts.length(position);
        if (lastFlags == null || !Arrays.equals(lastFlagsText, 0, lastFlagsText.length, data, offset, offset + length)) {
            lastFlagsText = Arrays.copyOfRange(data, offset, offset + length);
            lastFlags = RegexFlags.parse(new String(data, offset, length, StandardCharsets.UTF_8), true);
        }
        return lastFlags;
    }
}
