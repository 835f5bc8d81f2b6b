package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Base of every compiled expression. Evaluation takes an explicit list of positions so that CASE,
 * COALESCE and lazy AND/OR can run a sub-expression on only the rows that reach it: a kernel
 * reads and writes exactly the positions listed and never raises an error for another row.
 */
abstract class Evaluator implements VectorExpression {
    /**
     * Rows an evaluator's output vector holds before its first batch: outputs grow to the batch in
     * {@link #prepare}, so a statement over one row (a prepared point upsert compiles its
     * expressions per execution) does not allocate and clear vectors of a full batch.
     */
    static final int INITIAL_CAPACITY = 16;

    private final DataType type;

    Evaluator(DataType type) {
        this.type = type;
    }

    final DataType type() {
        return type;
    }

    @Override
    public final ColumnVector evaluate(Batch input) {
        return evaluate(input, input.selection(), input.selectedCount());
    }

    /**
     * Evaluates at the {@code count} positions listed in {@code selection} (or positions
     * {@code 0..count-1} when it is null) and returns a vector indexed like the input. Values and
     * null flags are defined at those positions only.
     */
    abstract ColumnVector evaluate(Batch input, int[] selection, int count);

    /** Prepares a reusable LONG output for {@code input}: grown to the batch, null flags cleared. */
    static LongVector prepare(LongVector output, Batch input) {
        output.ensureCapacity(Math.max(1, input.rowCount()));
        output.reset(output.capacity());
        return output;
    }

    static DoubleVector prepare(DoubleVector output, Batch input) {
        output.ensureCapacity(Math.max(1, input.rowCount()));
        output.reset(output.capacity());
        return output;
    }

    static BytesVector prepare(BytesVector output, Batch input) {
        output.ensureCapacity(Math.max(1, input.rowCount()));
        output.reset(output.capacity());
        return output;
    }

    static ColumnVector prepare(ColumnVector output, Batch input) {
        output.ensureCapacity(Math.max(1, input.rowCount()));
        output.reset(output.capacity());
        return output;
    }

    /** The null flags of {@code vector}, or null when it holds no NULL, so loops test one array reference. */
    static boolean[] nullsOf(ColumnVector vector) {
        return vector.mayHaveNulls() ? vector.nulls() : null;
    }

    /** True when the vector is NULL at the position; {@code nulls} from {@link #nullsOf}. */
    static boolean isNull(boolean[] nulls, int position) {
        return nulls != null && nulls[position];
    }

    /** Copies values and null flags at the listed positions from {@code source} to {@code target} (same vector kind). */
    static void copyPositions(ColumnVector source, ColumnVector target, int[] selection, int count) {
        boolean[] sourceNulls = nullsOf(source);
        switch (source) {
            case LongVector longs -> {
                long[] from = longs.values();
                long[] to = ((LongVector) target).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    to[position] = from[position];
                }
            }
            case DoubleVector doubles -> {
                double[] from = doubles.values();
                double[] to = ((DoubleVector) target).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    to[position] = from[position];
                }
            }
            case BytesVector bytes -> {
                BytesVector to = (BytesVector) target;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    if (!isNull(sourceNulls, position)) {
                        to.set(position, bytes.data(), bytes.offset(position), bytes.length(position));
                    }
                }
            }
        }
        if (sourceNulls != null) {
            boolean[] targetNulls = target.nulls();
            boolean any = false;
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                if (sourceNulls[position]) {
                    targetNulls[position] = true;
                    any = true;
                }
            }
            if (any) {
                target.markMayHaveNulls();
            }
        }
    }

    /**
     * Marks {@code output} NULL where either operand is NULL and writes the other listed positions to
     * {@code scratch}, returning how many: kernels then run on non-NULL rows only, so a stale value
     * behind a NULL can never raise an overflow or a division by zero.
     */
    static int nonNullPositions(int[] selection, int count, boolean[] leftNulls, boolean[] rightNulls,
                                ColumnVector output, int[] scratch) {
        int kept = 0;
        boolean[] outputNulls = output.nulls();
        boolean any = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(leftNulls, position) || isNull(rightNulls, position)) {
                outputNulls[position] = true;
                any = true;
            } else {
                scratch[kept++] = position;
            }
        }
        if (any) {
            output.markMayHaveNulls();
        }
        return kept;
    }

    /** A scratch position array of at least the batch's row count. */
    static int[] scratch(int[] current, Batch input) {
        return current.length >= input.rowCount() ? current : new int[Math.max(input.rowCount(), Batch.DEFAULT_CAPACITY)];
    }
}
