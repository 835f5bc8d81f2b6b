package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PosixRegex;
import dev.parallax.engine.type.RegexFlags;
import dev.parallax.engine.type.Utf8CharSequence;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.regex.Matcher;

/**
 * PostgreSQL's regular-expression match operators {@code ~}, {@code !~}, {@code ~*} and
 * {@code !~*}: true when the pattern (an advanced RE, {@link PosixRegex}) matches anywhere in the
 * text. The patterns are compiled by a {@link RegexCache}; each value is matched through one
 * reused Matcher over a reused decoded view, so rows allocate nothing. Strict: NULL in, NULL out.
 */
final class RegexMatchEvaluator extends Evaluator {
    private final Evaluator value;
    private final Evaluator pattern;
    private final boolean negated;
    private final RegexCache patterns;
    private final Utf8CharSequence text = new Utf8CharSequence();
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);
    private int[] scratch = new int[0];

    RegexMatchEvaluator(Evaluator value, Evaluator pattern, boolean negated, boolean caseInsensitive) {
        super(DataType.BOOLEAN);
        this.value = value;
        this.pattern = pattern;
        this.negated = negated;
        this.patterns = new RegexCache(pattern, caseInsensitive ? RegexFlags.CASE_INSENSITIVE : RegexFlags.NONE);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector values = (BytesVector) value.evaluate(input, selection, count);
        BytesVector patternTexts = (BytesVector) pattern.evaluate(input, selection, count);
        LongVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] patternNulls = nullsOf(patternTexts);
        if (valueNulls != null || patternNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, patternNulls, result, scratch);
            selection = scratch;
        }
        long[] out = result.values();
        long hit = negated ? 0 : 1;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            text.load(values.data(), values.offset(position), values.length(position));
            Matcher matcher = patterns.matcher(patternTexts, position, RegexFlags.NONE);
            out[position] = matcher.reset(text).find() ? hit : 1 - hit;
        }
        return result;
    }
}
