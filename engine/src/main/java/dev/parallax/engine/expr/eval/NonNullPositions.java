package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/**
 * The positions of a batch where no argument of a strict function is NULL, narrowed argument by
 * argument: the output is marked NULL at the others, and the kernel then runs on these only. Two
 * scratch arrays are kept and swapped, so narrowing allocates nothing once they fit the batch.
 */
final class NonNullPositions {
    private int[] positions = new int[0];
    private int[] spare = new int[0];
    private int[] selection;

    /**
     * Drops from the {@code count} listed positions ({@code selection}, null for 0..count-1) those
     * where {@code nulls} is set, marking {@code output} NULL there; returns how many remain, listed
     * in {@link #positions()} from now on.
     */
    int narrow(boolean[] nulls, Batch input, int[] selection, int count, ColumnVector output) {
        positions = Evaluator.scratch(positions, input);
        spare = Evaluator.scratch(spare, input);
        int kept = Evaluator.nonNullPositions(selection, count, nulls, null, output, spare);
        int[] swap = positions;
        positions = spare;
        spare = swap;
        return kept;
    }

    int[] positions() {
        return positions;
    }

    /**
     * Evaluates a strict function's {@code arguments} (null entries, arguments not given, skipped) in order into {@code vectors}, each over the
     * positions where the ones before were not NULL, and narrows to the rows where none is NULL
     * ({@code output} marked NULL at the others); returns how many remain, listed in
     * {@link #selection()} (null for 0..count-1) from now on.
     */
    int evaluateArguments(Evaluator[] arguments, ColumnVector[] vectors, Batch input, int[] selection, int count, ColumnVector output) {
        this.selection = selection;
        for (int argument = 0; argument < arguments.length; argument++) {
            if (arguments[argument] == null) {
                continue; // an optional argument not given
            }
            vectors[argument] = arguments[argument].evaluate(input, this.selection, count);
            boolean[] nulls = Evaluator.nullsOf(vectors[argument]);
            if (nulls != null) {
                count = narrow(nulls, input, this.selection, count, output);
                this.selection = positions;
            }
        }
        return count;
    }

    /** The positions {@link #evaluateArguments} kept. */
    int[] selection() {
        return selection;
    }
}
