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
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * The array functions that build a new array from one, with PostgreSQL 15's results:
 * {@code array_append(array, value)} and {@code array_prepend(value, array)} (a NULL array counts
 * as empty; the array's lower bound is kept), {@code array_remove(array, value)} and
 * {@code array_replace(array, from, to)} (elements IS NOT DISTINCT FROM the value; NULL array,
 * NULL result), {@code array_fill(value, dimensions[, lower bounds])} and slices
 * {@code a[lower:upper]} (bounds clipped to the array, the result starting at 1; a NULL bound gives
 * NULL, an omitted one the array's own bound). The function is chosen once per batch; each then runs
 * its own loop over the rows, building into one reused builder and writing into the output vector.
 */
final class ArrayEditEvaluator extends Evaluator {
    /** PostgreSQL's largest array in bytes (MaxAllocSize); array_fill checks it before building. */
    private static final long MAXIMUM_ARRAY_BYTES = 0x3fffffff;
    /** PostgreSQL's MaxArraySize. */
    private static final int MAXIMUM_ELEMENTS = 0x7ffffff;

    private final Function function;
    private final Evaluator[] arguments;
    private final ColumnVector[] vectors;
    private final VectorKind elementKind;
    private final BytesVector output;
    private final ArrayValue.Builder builder;
    /** Slices: whether the lower and the upper bound were written ({@code a[:2]} has no lower bound). */
    private final boolean hasLower;
    private final boolean hasUpper;

    ArrayEditEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        this(function, arguments, resultType, true, true);
    }

    /** A slice {@code array[lower:upper]} (arguments array, lower, upper), either bound possibly omitted. */
    ArrayEditEvaluator(Function function, Evaluator[] arguments, DataType resultType, boolean hasLower, boolean hasUpper) {
        super(resultType);
        this.hasLower = hasLower;
        this.hasUpper = hasUpper;
        this.function = function;
        this.arguments = arguments;
        this.vectors = new ColumnVector[arguments.length];
        this.elementKind = resultType.element().vectorKind();
        this.output = new BytesVector(resultType, Evaluator.INITIAL_CAPACITY);
        this.builder = new ArrayValue.Builder(resultType);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        BytesVector result = prepare(output, input);
        for (int argument = 0; argument < arguments.length; argument++) {
            vectors[argument] = arguments[argument].evaluate(input, selection, count);
        }
        boolean anyNull = switch (function) {
            case ARRAY_APPEND -> appendAll(result, selection, count, (BytesVector) vectors[0], vectors[1], false);
            case ARRAY_PREPEND -> appendAll(result, selection, count, (BytesVector) vectors[1], vectors[0], true);
            case ARRAY_REMOVE, ARRAY_REPLACE -> replaceAll(result, selection, count);
            case ARRAY_FILL -> fillAll(result, selection, count);
            case ARRAY_SLICE -> sliceAll(result, selection, count);
            default -> throw new IllegalStateException("not an array edit: " + function);
        };
        if (anyNull) {
            result.markMayHaveNulls();
        }
        return result;
    }

    /** array_append / array_prepend: never NULL (a NULL array is an empty one). */
    private boolean appendAll(BytesVector result, int[] selection, int count, BytesVector arrays, ColumnVector value, boolean prepend) {
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int lowerBound = 1;
            if (prepend) {
                addValue(value, position);
            }
            if (!arrays.isNull(position)) {
                byte[] data = arrays.data();
                int offset = arrays.offset(position);
                int elements = ArrayValue.count(data, offset);
                if (elements > 0) {
                    lowerBound = ArrayValue.lowerBound(data, offset);
                    if (!prepend && (long) lowerBound + elements > Integer.MAX_VALUE) {
                        throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
                    }
                }
                for (int element = 0; element < elements; element++) {
                    builder.addFrom(data, offset, element);
                }
            }
            if (!prepend) {
                addValue(value, position);
            }
            builder.buildInto(result, position, lowerBound);
        }
        return false;
    }

    /** array_remove(array, value) and array_replace(array, from, to); NULL for a NULL array. */
    private boolean replaceAll(BytesVector result, int[] selection, int count) {
        BytesVector arrays = (BytesVector) vectors[0];
        ColumnVector target = vectors[1];
        ColumnVector replacement = function == Function.ARRAY_REPLACE ? vectors[2] : null;
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
            int elements = ArrayValue.count(data, offset);
            boolean nullTarget = target.isNull(position);
            for (int element = 0; element < elements; element++) {
                boolean nullElement = ArrayValue.isNull(data, offset, element);
                boolean matches = nullTarget ? nullElement
                        : !nullElement && ArrayElements.equalsValue(elementKind, data, offset, element, target, position);
                if (!matches) {
                    builder.addFrom(data, offset, element);
                } else if (replacement != null) {
                    addValue(replacement, position);
                }
            }
            builder.buildInto(result, position, ArrayValue.lowerBound(data, offset));
        }
        return anyNull;
    }

    /**
     * array_fill(value, dimensions[, lower bounds]) with PostgreSQL 15's checks: 22004 for a NULL
     * dimension array or element, 2202E when the lower bounds do not match the dimensions, 54000 for
     * a size or bound beyond the limits, 0A000 for more than one dimension.
     */
    private boolean fillAll(BytesVector result, int[] selection, int count) {
        ColumnVector value = vectors[0];
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            BytesVector dimensionArrays = checkedBounds(vectors[1], position);
            byte[] dimensions = dimensionArrays.data();
            int dimensionsOffset = dimensionArrays.offset(position);
            int dimensionCount = ArrayValue.count(dimensions, dimensionsOffset);
            int lowerBound = 1;
            if (vectors.length > 2) {
                BytesVector boundArrays = checkedBounds(vectors[2], position);
                int boundsOffset = boundArrays.offset(position);
                if (ArrayValue.count(boundArrays.data(), boundsOffset) != dimensionCount) {
                    throw ParallaxException.of(SqlState.ARRAY_SUBSCRIPT_ERROR, "wrong number of array subscripts")
                            .withDetail("Low bound array has different size than dimensions array.");
                }
                if (dimensionCount > 0) {
                    lowerBound = (int) ArrayValue.longAt(boundArrays.data(), boundsOffset, 0);
                }
            }
            if (dimensionCount > 1) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "multidimensional arrays are not supported: Parallax arrays have one dimension");
            }
            long elements = dimensionCount == 0 ? 0 : ArrayValue.longAt(dimensions, dimensionsOffset, 0);
            long elementBytes = value.isNull(position) ? 0 : value instanceof BytesVector bytes ? 4L + bytes.length(position) : 8;
            if (elements < 0 || elements > MAXIMUM_ELEMENTS) {
                throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)", MAXIMUM_ELEMENTS);
            }
            if (ArrayValue.HEADER_BYTES + (elements + 7) / 8 + elements * elementBytes > MAXIMUM_ARRAY_BYTES) {
                throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)", MAXIMUM_ARRAY_BYTES);
            }
            if (elements > 0 && (long) lowerBound + elements - 1 > Integer.MAX_VALUE) {
                throw ParallaxException.of(SqlState.PROGRAM_LIMIT_EXCEEDED, "array lower bound is too large: %d", lowerBound);
            }
            for (long element = 0; element < elements; element++) {
                addValue(value, position);
            }
            builder.buildInto(result, position, lowerBound);
        }
        return false;
    }

    /** A dimensions or lower-bounds array of array_fill: 22004 when it or an element is NULL. */
    private static BytesVector checkedBounds(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            throw ParallaxException.of(SqlState.NULL_VALUE_NOT_ALLOWED, "dimension array or low bound array cannot be null");
        }
        BytesVector arrays = (BytesVector) vector;
        byte[] data = arrays.data();
        int offset = arrays.offset(position);
        int elements = ArrayValue.count(data, offset);
        for (int element = 0; element < elements; element++) {
            if (ArrayValue.isNull(data, offset, element)) {
                throw ParallaxException.of(SqlState.NULL_VALUE_NOT_ALLOWED, "dimension values cannot be null");
            }
        }
        return arrays;
    }

    /**
     * {@code array[lower:upper]}: arguments array, lower and upper (an omitted bound's argument is
     * ignored). The bounds are clipped to the array; an empty range gives an
     * empty array; the result's subscripts start at 1.
     */
    private boolean sliceAll(BytesVector result, int[] selection, int count) {
        BytesVector arrays = (BytesVector) vectors[0];
        LongVector lowers = (LongVector) vectors[1];
        LongVector uppers = (LongVector) vectors[2];
        boolean[] nulls = result.nulls();
        boolean anyNull = false;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (arrays.isNull(position) || hasLower && lowers.isNull(position) || hasUpper && uppers.isNull(position)) {
                nulls[position] = true;
                anyNull = true;
                continue;
            }
            byte[] data = arrays.data();
            int offset = arrays.offset(position);
            int elements = ArrayValue.count(data, offset);
            long lowerBound = ArrayValue.lowerBound(data, offset);
            long from = hasLower ? Math.max(lowers.values()[position], lowerBound) : lowerBound;
            long to = hasUpper ? Math.min(uppers.values()[position], lowerBound + elements - 1) : lowerBound + elements - 1;
            for (long subscript = from; subscript <= to; subscript++) {
                builder.addFrom(data, offset, (int) (subscript - lowerBound));
            }
            builder.buildInto(result, position, 1);
        }
        return anyNull;
    }

    private void addValue(ColumnVector value, int position) {
        if (value.isNull(position)) {
            builder.addNull();
            return;
        }
        switch (value) {
            case LongVector longs -> builder.addLong(longs.values()[position]);
            case DoubleVector doubles -> builder.addDouble(doubles.values()[position]);
            case BytesVector bytes -> builder.addBytes(bytes.data(), bytes.offset(position), bytes.length(position));
        }
    }
}
