package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;

/** A compiled WHERE condition. One instance per operator instance, used by one thread. */
public interface Predicate {
    /**
     * Writes the live positions of {@code input} for which the condition is TRUE (not FALSE, not
     * NULL) into {@code selectionOut}, ascending, and returns their number. {@code selectionOut}
     * must hold at least {@code input.rowCount()} entries; it may be the input's own selection array.
     */
    int select(Batch input, int[] selectionOut);
}
