package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;

/** Base of compiled predicates: selects among an explicit list of positions (see {@link Evaluator}). */
abstract class Selector implements Predicate {
    @Override
    public final int select(Batch input, int[] selectionOut) {
        return select(input, input.selection(), input.selectedCount(), selectionOut);
    }

    /**
     * Writes to {@code out} the positions among the {@code count} listed in {@code selection}
     * (positions {@code 0..count-1} when null) where the condition is TRUE, ascending; returns how
     * many. {@code out} may be {@code selection} itself.
     */
    abstract int select(Batch input, int[] selection, int count, int[] out);
}
