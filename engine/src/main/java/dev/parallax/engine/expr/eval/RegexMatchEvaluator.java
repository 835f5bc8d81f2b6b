package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * PostgreSQL's regular-expression match operators {@code ~}, {@code !~}, {@code ~*} and
 * {@code !~*}: true when the pattern matches anywhere in the text. Java's regular expressions
 * agree with PostgreSQL's advanced ones on the common syntax (anchors, classes, groups,
 * alternation, quantifiers, backslash escapes). A constant pattern is compiled once; a per-row
 * pattern is recompiled only when it differs from the previous row's. Strict: NULL in, NULL out.
 */
final class RegexMatchEvaluator extends Evaluator {
    private final Evaluator value;
    private final Evaluator pattern;
    private final boolean negated;
    private final boolean caseInsensitive;
    private final Pattern constantPattern;
    private final LongVector output = new LongVector(DataType.BOOLEAN, Evaluator.INITIAL_CAPACITY);
    private String lastPatternText;
    private Pattern lastPattern;
    private int[] scratch = new int[0];

    RegexMatchEvaluator(Evaluator value, Evaluator pattern, boolean negated, boolean caseInsensitive) {
        super(DataType.BOOLEAN);
        this.value = value;
        this.pattern = pattern;
        this.negated = negated;
        this.caseInsensitive = caseInsensitive;
        this.constantPattern = pattern instanceof ConstantEvaluator constant && !constant.isNull()
                ? compile(new String(constant.bytesValue(), StandardCharsets.UTF_8)) : null;
    }

    private Pattern compile(String text) {
        try {
            return Pattern.compile(text, caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException invalid) {
            throw ParallaxException.of(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s",
                    invalid.getDescription());
        }
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
            Pattern compiled = constantPattern != null ? constantPattern : patternAt(patterns, position);
            // The matcher needs a CharSequence: one String per row, as PostgreSQL's regex engine
            // converts each value to wide characters; regular expressions are not a hot path here.
            String text = new String(values.data(), values.offset(position), values.length(position), StandardCharsets.UTF_8);
            out[position] = compiled.matcher(text).find() ? hit : 1 - hit;
        }
        return result;
    }

    private Pattern patternAt(BytesVector patterns, int position) {
        String text = new String(patterns.data(), patterns.offset(position), patterns.length(position), StandardCharsets.UTF_8);
        if (lastPattern == null || !lastPatternText.equals(text)) {
            lastPatternText = text;
            lastPattern = compile(text);
        }
        return lastPattern;
    }
}
