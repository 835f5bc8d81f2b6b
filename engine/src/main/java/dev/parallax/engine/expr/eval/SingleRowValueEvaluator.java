package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * SCALAR_SUBQUERY_VALUE(value, row count): a decorrelated scalar subquery's value at the rows that
 * use it, and 21000 when one of those rows' correlation group had more than one row. The aggregate
 * below the join only counts the rows of each group, so a group of two rows that no outer row
 * uses (or that only a CASE branch never taken would use) raises nothing, as in PostgreSQL.
 * The value's vector is returned as it is: no copy.
 */
final class SingleRowValueEvaluator extends Evaluator {
    private final Evaluator value;
    private final Evaluator rowCount;

    SingleRowValueEvaluator(Evaluator value, Evaluator rowCount) {
        super(value.type());
        this.value = value;
        this.rowCount = rowCount;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector counts = (LongVector) rowCount.evaluate(input, selection, count);
        long[] rows = counts.values();
        boolean[] nulls = nullsOf(counts);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            // NULL: the outer row matched no group (a left join's missing side), so no row at all.
            if (rows[position] > 1 && !isNull(nulls, position)) {
                throw ParallaxException.of(SqlState.CARDINALITY_VIOLATION, "more than one row returned by a subquery used as an expression");
            }
        }
        return value.evaluate(input, selection, count);
    }
}
