package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.LikePattern;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * [NOT] LIKE / ILIKE. A constant pattern is compiled once; a per-row pattern is recompiled only
 * when it differs from the previous row's. ILIKE lower-cases both sides.
 */
final class LikeEvaluator extends Evaluator {
    private final Evaluator value;
    private final Evaluator pattern;
    private final boolean negated;
    private final boolean caseInsensitive;
    private final LikePattern constantPattern;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);
    private byte[] lastPatternBytes;
    private LikePattern lastPattern;
    private int[] scratch = new int[0];

    LikeEvaluator(Evaluator value, Evaluator pattern, boolean negated, boolean caseInsensitive) {
        super(DataType.BOOLEAN);
        this.value = value;
        this.pattern = pattern;
        this.negated = negated;
        this.caseInsensitive = caseInsensitive;
        this.constantPattern = pattern instanceof ConstantEvaluator constant && !constant.isNull()
                ? LikePattern.compile(prepare(constant.bytesValue())) : null;
    }

    private byte[] prepare(byte[] text) {
        return caseInsensitive ? new String(text, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8) : text;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector values = (BytesVector) value.evaluate(input, selection, count);
        BytesVector patterns = (BytesVector) pattern.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] patternNulls = nullsOf(patterns);
        if (valueNulls != null || patternNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, patternNulls, result, scratch);
            selection = scratch;
        }
        long[] out = result.values();
        long hit = negated ? 0 : 1;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            LikePattern compiled = constantPattern != null ? constantPattern : patternAt(patterns, position);
            boolean matches;
            if (caseInsensitive) {
                byte[] lowered = prepare(values.getBytes(position));
                matches = compiled.matches(lowered, 0, lowered.length);
            } else {
                matches = compiled.matches(values.data(), values.offset(position), values.length(position));
            }
            out[position] = matches ? hit : 1 - hit;
        }
        return result;
    }

    private LikePattern patternAt(BytesVector patterns, int position) {
        int offset = patterns.offset(position);
        int length = patterns.length(position);
        if (lastPattern == null || !Arrays.equals(lastPatternBytes, 0, lastPatternBytes.length, patterns.data(), offset, offset + length)) {
            lastPatternBytes = patterns.getBytes(position);
            lastPattern = LikePattern.compile(prepare(lastPatternBytes));
        }
        return lastPattern;
    }
}
