package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Searches in arrays, as PostgreSQL 15 answers them: {@code array_position(array, value[, start])}
 * and {@code array_positions(array, value)} find elements IS NOT DISTINCT FROM the value (a NULL
 * value finds NULL elements), giving subscripts; {@code a @> b}, {@code a <@ b} and {@code a && b}
 * compare elements with {@code =}, so a NULL element matches nothing. A NULL array gives NULL. The
 * function is chosen once per batch; each then runs its own loop over the rows.
 */
final class ArraySearchEvaluator extends Evaluator {
    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector[] vectors;
    private final VectorKind elementKind;
    private final ColumnVector output;
    private final ArrayValue.Builder positions;

    ArraySearchEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        super(resultType);
        this.function = function;
        this.arguments = arguments;
        this.vectors = new ColumnVector[arguments.length];
        this.elementKind = arguments[0].type().element().vectorKind();
        this.output = ColumnVector.create(resultType, Evaluator.INITIAL_CAPACITY);
        this.positions = function == Function.ARRAY_POSITIONS ? new ArrayValue.Builder(resultType) : null;
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        for (int argument = 0; argument < arguments.length; argument++) {
            vectors[argument] = arguments[argument].evaluate(input, selection, count);
        }
        boolean anyNull = switch (function) {
            case ARRAY_POSITION -> positionAll((LongVector) result, selection, count);
            case ARRAY_POSITIONS -> positionsAll((BytesVector) result, selection, count);
            case ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP -> containmentAll((LongVector) result, selection, count);
            default -> throw new IllegalStateException("not an array search: " + function);
        };
        if (anyNull) {
            result.markMayHaveNulls();
        }
        return result;
    }

    /** array_position over the rows; returns whether a result is NULL. */
    private boolean positionAll(LongVector result, int[] selection, int count) {
        BytesVector arrays = (BytesVector) vectors[0];
        ColumnVector value = vectors[1];
        LongVector starts = vectors.length > 2 ? (LongVector) vectors[2] : null;
        long[] values = result.values();
        boolean[] nulls = result.nulls();
        boolean anyNull = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (arrays.isNull(position)) {
                nulls[position] = true;
                anyNull = true;
                continue;
            }
            byte[] data = arrays.data();
            int offset = arrays.offset(position);
            int lowerBound = ArrayValue.lowerBound(data, offset);
            int first = 0;
            if (starts != null) {
                if (starts.isNull(position)) {
                    throw ParallaxException.of(SqlState.NULL_VALUE_NOT_ALLOWED, "initial position must not be null");
                }
                first = (int) Math.max(0, Math.min(Integer.MAX_VALUE, starts.values()[position] - lowerBound));
            }
            int found = find(data, offset, first, value, position);
            if (found < 0) {
                nulls[position] = true;
                anyNull = true;
            } else {
                values[position] = (long) lowerBound + found;
            }
        }
        return anyNull;
    }

    /** array_positions over the rows; returns whether a result is NULL. */
    private boolean positionsAll(BytesVector result, int[] selection, int count) {
        BytesVector arrays = (BytesVector) vectors[0];
        ColumnVector value = vectors[1];
        boolean[] nulls = result.nulls();
        boolean anyNull = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (arrays.isNull(position)) {
                nulls[position] = true;
                anyNull = true;
                continue;
            }
            byte[] data = arrays.data();
            int offset = arrays.offset(position);
            int lowerBound = ArrayValue.lowerBound(data, offset);
            for (int found = find(data, offset, 0, value, position); found >= 0; found = find(data, offset, found + 1, value, position)) {
                positions.addLong((long) lowerBound + found);
            }
            positions.buildInto(result, position, 1);
        }
        return anyNull;
    }

    /** The first 0-based index from {@code first} whose element IS NOT DISTINCT FROM the value, or -1. */
    private int find(byte[] data, int offset, int first, ColumnVector value, int position) {
        int elements = ArrayValue.count(data, offset);
        boolean nullValue = value.isNull(position);
        for (int element = first; element < elements; element++) {
            boolean nullElement = ArrayValue.isNull(data, offset, element);
            if (nullValue ? nullElement : !nullElement && ArrayElements.equalsValue(elementKind, data, offset, element, value, position)) {
                return element;
            }
        }
        return -1;
    }

    /** {@code @>}, {@code <@} and {@code &&} over the rows; returns whether a result is NULL. */
    private boolean containmentAll(LongVector result, int[] selection, int count) {
        BytesVector left = (BytesVector) vectors[0];
        BytesVector right = (BytesVector) vectors[1];
        long[] values = result.values();
        boolean[] nulls = result.nulls();
        boolean anyNull = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (left.isNull(position) || right.isNull(position)) {
                nulls[position] = true;
                anyNull = true;
                continue;
            }
            boolean holds = switch (function) {
                case ARRAY_CONTAINS -> everyElementIn(right.data(), right.offset(position), left.data(), left.offset(position));
                case ARRAY_CONTAINED -> everyElementIn(left.data(), left.offset(position), right.data(), right.offset(position));
                default -> anyElementIn(left.data(), left.offset(position), right.data(), right.offset(position));
            };
            values[position] = holds ? 1 : 0;
        }
        return anyNull;
    }

    /** Whether every element of {@code inner} equals some element of {@code outer} (a NULL element equals none). */
    private boolean everyElementIn(byte[] inner, int innerOffset, byte[] outer, int outerOffset) {
        int innerCount = ArrayValue.count(inner, innerOffset);
        for (int element = 0; element < innerCount; element++) {
            if (ArrayValue.isNull(inner, innerOffset, element) || !contains(outer, outerOffset, inner, innerOffset, element)) {
                return false;
            }
        }
        return true;
    }

    /** Whether some element of {@code left} equals some element of {@code right}. */
    private boolean anyElementIn(byte[] left, int leftOffset, byte[] right, int rightOffset) {
        int leftCount = ArrayValue.count(left, leftOffset);
        for (int element = 0; element < leftCount; element++) {
            if (!ArrayValue.isNull(left, leftOffset, element) && contains(right, rightOffset, left, leftOffset, element)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the array at {@code offset} holds a non-NULL element equal to element {@code index} of {@code other}. */
    private boolean contains(byte[] data, int offset, byte[] other, int otherOffset, int index) {
        int elements = ArrayValue.count(data, offset);
        for (int element = 0; element < elements; element++) {
            if (!ArrayValue.isNull(data, offset, element)
                    && ArrayElements.equalElements(elementKind, data, offset, element, other, otherOffset, index)) {
                return true;
            }
        }
        return false;
    }
}
