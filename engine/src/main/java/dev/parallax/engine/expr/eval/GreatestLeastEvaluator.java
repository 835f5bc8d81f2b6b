package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * PostgreSQL's {@code greatest(value, ...)} and {@code least(value, ...)} over arguments already of
 * the result type (the planner casts them): NULL arguments are ignored, the result is NULL only
 * when every argument is. On ties the first argument wins, as in PostgreSQL's ExecEvalMinMax (it
 * shows for -0 and 0 of double precision, equal there). The arguments are folded in column by
 * column: each pass keeps, per row, the value so far or the next argument's.
 */
final class GreatestLeastEvaluator extends Evaluator {
    private final Evaluator[] arguments;
    /** 1 for greatest (a later argument replaces the value when it compares greater), -1 for least. */
    private final int direction;
    private final boolean padded;
    private final boolean bits;
    private final DataType arrayType;
    private final ColumnVector output;
    /** Per row of the current batch, which argument holds the value so far (-1: none, all NULL so far). */
    private int[] chosen = new int[0];
    private final ColumnVector[] argumentVectors;

    GreatestLeastEvaluator(boolean greatest, Evaluator[] arguments, DataType type) {
        super(type);
        this.arguments = arguments;
        this.direction = greatest ? 1 : -1;
        this.padded = type.kind() == TypeKind.CHAR;
        this.bits = type.kind().isBitString();
        this.arrayType = type.kind() == TypeKind.ARRAY ? type : null;
        this.output = ColumnVector.create(type, Evaluator.INITIAL_CAPACITY);
        this.argumentVectors = new ColumnVector[arguments.length];
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        for (int argument = 0; argument < arguments.length; argument++) {
            argumentVectors[argument] = arguments[argument].evaluate(input, selection, count);
        }
        ColumnVector result = prepare(output, input);
        if (chosen.length < input.rowCount()) {
            chosen = new int[Math.max(input.rowCount(), Batch.DEFAULT_CAPACITY)];
        }
        for (int index = 0; index < count; index++) {
            chosen[selection == null ? index : selection[index]] = -1;
        }
        for (int argument = 0; argument < arguments.length; argument++) {
            ColumnVector vector = argumentVectors[argument];
            if (vector.type().kind() == TypeKind.NULL) {
                continue;
            }
            switch (vector) {
                case LongVector longs -> chooseLongs(longs, argument, selection, count);
                case DoubleVector doubles -> chooseDoubles(doubles, argument, selection, count);
                case BytesVector bytes -> chooseBytes(bytes, argument, selection, count);
            }
        }
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int argument = chosen[position];
            if (argument < 0) {
                result.setNull(position);
            } else {
                result.copyFrom(argumentVectors[argument], position, position);
            }
        }
        return result;
    }

    private void chooseLongs(LongVector candidates, int argument, int[] selection, int count) {
        long[] values = candidates.values();
        boolean[] nulls = nullsOf(candidates);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                continue;
            }
            int current = chosen[position];
            if (current < 0 || Long.compare(values[position], ((LongVector) argumentVectors[current]).values()[position]) * direction > 0) {
                chosen[position] = argument;
            }
        }
    }

    private void chooseDoubles(DoubleVector candidates, int argument, int[] selection, int count) {
        double[] values = candidates.values();
        boolean[] nulls = nullsOf(candidates);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                continue;
            }
            int current = chosen[position];
            if (current < 0) {
                chosen[position] = argument;
                continue;
            }
            double value = values[position];
            double best = ((DoubleVector) argumentVectors[current]).values()[position];
            // PostgreSQL's float order: NaN above everything and equal to itself, -0 equal to 0.
            int comparison = value == best ? 0 : Double.compare(value, best);
            if (comparison * direction > 0) {
                chosen[position] = argument;
            }
        }
    }

    private void chooseBytes(BytesVector candidates, int argument, int[] selection, int count) {
        boolean[] nulls = nullsOf(candidates);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (isNull(nulls, position)) {
                continue;
            }
            int current = chosen[position];
            if (current < 0) {
                chosen[position] = argument;
                continue;
            }
            BytesVector best = (BytesVector) argumentVectors[current];
            int comparison = arrayType != null
                    ? dev.parallax.engine.sort.ValueOrder.compareArrays(arrayType, candidates.data(), candidates.offset(position),
                            best.data(), best.offset(position))
                    : bits
                    ? ComparisonEvaluator.compareBits(candidates.data(), candidates.offset(position), candidates.length(position),
                            best.data(), best.offset(position), best.length(position))
                    : ComparisonEvaluator.compareText(candidates.data(), candidates.offset(position), candidates.length(position),
                            best.data(), best.offset(position), best.length(position), padded);
            if (Integer.signum(comparison) * direction > 0) {
                chosen[position] = argument;
            }
        }
    }
}
