package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/**
 * CASE WHEN ... THEN ... ELSE ... END. Each condition runs on the rows no earlier condition took;
 * each result runs on exactly the rows its condition selected, so a branch never raises an error
 * for a row that does not reach it. COALESCE compiles to this shape too (WHEN x IS NOT NULL THEN x).
 */
final class CaseEvaluator extends Evaluator {
    private final Selector[] conditions;
    private final Evaluator[] results;
    private final Evaluator otherwise;
    private final ColumnVector output;
    private int[] remaining = new int[0];
    private int[] matched = new int[0];

    CaseEvaluator(Selector[] conditions, Evaluator[] results, Evaluator otherwise, DataType type) {
        super(type);
        this.conditions = conditions;
        this.results = results;
        this.otherwise = otherwise;
        this.output = ColumnVector.create(type, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        remaining = scratch(remaining, input);
        matched = scratch(matched, input);
        int remainingCount = count;
        if (selection == null) {
            for (int position = 0; position < count; position++) {
                remaining[position] = position;
            }
        } else {
            System.arraycopy(selection, 0, remaining, 0, count);
        }
        for (int branch = 0; branch < conditions.length && remainingCount > 0; branch++) {
            int matchedCount = conditions[branch].select(input, remaining, remainingCount, matched);
            if (matchedCount == 0) {
                continue;
            }
            copyPositions(results[branch].evaluate(input, matched, matchedCount), result, matched, matchedCount);
            int kept = 0;
            int next = 0;
            for (int index = 0; index < remainingCount; index++) {
                int position = remaining[index];
                if (next < matchedCount && matched[next] == position) {
                    next++;
                } else {
                    remaining[kept++] = position;
                }
            }
            remainingCount = kept;
        }
        if (remainingCount > 0) {
            copyPositions(otherwise.evaluate(input, remaining, remainingCount), result, remaining, remainingCount);
        }
        return result;
    }
}
