package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.PosixRegex;
import dev.parallax.engine.type.RegexFlags;
import dev.parallax.engine.vector.BytesVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The compiled patterns of one regular-expression evaluator: a constant pattern is compiled once,
 * when the evaluator is built (so an invalid one fails before any row, and not per row); a pattern
 * that varies is compiled when it differs from the previous row's (bytes compared in place).
 * Hands out one Matcher per pattern, reset by the caller on each value.
 */
final class RegexCache {
    private final Matcher constantMatcher;
    private final RegexFlags fixedFlags;
    private byte[] lastPattern;
    private RegexFlags lastFlags;
    private Matcher lastMatcher;
    private byte[] lastFlagsText;
    private RegexFlags lastRowFlags;

    /** {@code flags} non-null: the flags of every row (the operators, a constant flags argument). */
    RegexCache(Evaluator pattern, RegexFlags flags) {
        this.fixedFlags = flags;
        this.constantMatcher = flags != null && pattern instanceof ConstantEvaluator constant && !constant.isNull()
                ? PosixRegex.compile(new String(constant.bytesValue(), StandardCharsets.UTF_8), flags).matcher("") : null;
    }

    /** The matcher of the pattern at {@code position} of {@code patterns}, with the fixed flags or else {@code rowFlags}. */
    Matcher matcher(BytesVector patterns, int position, RegexFlags rowFlags) {
        if (constantMatcher != null) {
            return constantMatcher;
        }
        RegexFlags flags = fixedFlags != null ? fixedFlags : rowFlags;
        byte[] data = patterns.data();
        int offset = patterns.offset(position);
        int length = patterns.length(position);
        if (lastMatcher == null || !flags.equals(lastFlags)
                || !Arrays.equals(lastPattern, 0, lastPattern.length, data, offset, offset + length)) {
            lastPattern = Arrays.copyOfRange(data, offset, offset + length);
            lastFlags = flags;
            Pattern compiled = PosixRegex.compile(new String(data, offset, length, StandardCharsets.UTF_8), flags);
            lastMatcher = compiled.matcher("");
        }
        return lastMatcher;
    }

    /** The flags written at {@code position} of a flags argument that is not constant, parsed again only when they change. */
    RegexFlags rowFlags(BytesVector flagTexts, int position) {
        byte[] data = flagTexts.data();
        int offset = flagTexts.offset(position);
        int length = flagTexts.length(position);
        if (lastRowFlags == null || !Arrays.equals(lastFlagsText, 0, lastFlagsText.length, data, offset, offset + length)) {
            lastFlagsText = Arrays.copyOfRange(data, offset, offset + length);
            lastRowFlags = RegexFlags.parse(new String(data, offset, length, StandardCharsets.UTF_8), true);
        }
        return lastRowFlags;
    }
}
