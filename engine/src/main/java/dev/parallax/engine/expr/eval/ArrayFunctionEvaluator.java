package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.sort.ValueOrder;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The array functions of {@link Function} (construction, subscripts, sizes, array_to_string,
 * concatenation, {@code op ANY/ALL (array)}), row by row over the batch: arrays come from catalog
 * queries and small literals, where a value-at-a-time loop costs nothing next to the rest, and the
 * one dispatch on the function happens here, per row, rather than in a kernel per combination.
 * Arguments that an array function takes besides arrays (subscripts, dimensions) are integers;
 * compared values have the element type (the planner casts them).
 */
final class ArrayFunctionEvaluator extends RowByRowEvaluator {
    private final Function function;
    private final ArrayValue.Builder builder;
    /** Bit 0: the comparison holds when the value is less than the element; bit 1: equal; bit 2: greater. */
    private final int comparisonMask;
    private final boolean all;
    private final StringBuilder text = new StringBuilder();

    ArrayFunctionEvaluator(Function function, Evaluator[] arguments, DataType resultType) {
        super(arguments, resultType);
        this.function = function;
        this.builder = resultType.kind() == dev.parallax.engine.type.TypeKind.ARRAY ? new ArrayValue.Builder(resultType) : null;
        Function comparison = comparisonOf(function);
        this.comparisonMask = comparison == null ? 0 : ComparisonEvaluator.maskOf(comparison);
        this.all = comparison != null && function.name().endsWith("_ALL");
    }

    /** The comparison of a quantified function ({@code EQUAL_ANY} → {@code EQUAL}), or null. */
    static Function comparisonOf(Function function) {
        return switch (function) {
            case EQUAL_ANY, EQUAL_ALL -> Function.EQUAL;
            case NOT_EQUAL_ANY, NOT_EQUAL_ALL -> Function.NOT_EQUAL;
            case LESS_THAN_ANY, LESS_THAN_ALL -> Function.LESS_THAN;
            case LESS_THAN_OR_EQUAL_ANY, LESS_THAN_OR_EQUAL_ALL -> Function.LESS_THAN_OR_EQUAL;
            case GREATER_THAN_ANY, GREATER_THAN_ALL -> Function.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL_ANY, GREATER_THAN_OR_EQUAL_ALL -> Function.GREATER_THAN_OR_EQUAL;
            default -> null;
        };
    }

    @Override
    boolean evaluateRow(ColumnVector result, int position) {
        if (function == Function.ARRAY_CONSTRUCT) {
            for (ColumnVector vector : vectors) {
                addElement(vector, position);
            }
            ((BytesVector) result).set(position, builder.build(1));
            return true;
        }
        if (comparisonMask != 0) {
            return quantified((LongVector) result, position);
        }
        if (function == Function.ARRAY_CONCAT) {
            return concatenate((BytesVector) result, position);
        }
        ColumnVector arrayVector = vectors[0];
        if (arrayVector.isNull(position) || vectors.length > 1 && vectors[1].isNull(position)) {
            return false;
        }
        BytesVector arrays = (BytesVector) arrayVector;
        byte[] data = arrays.data();
        int offset = arrays.offset(position);
        int count = ArrayValue.count(data, offset);
        int lowerBound = ArrayValue.lowerBound(data, offset);
        switch (function) {
            case ARRAY_ELEMENT -> {
                long subscript = ((LongVector) vectors[1]).values()[position];
                long index = subscript - lowerBound;
                if (index < 0 || index >= count || ArrayValue.isNull(data, offset, (int) index)) {
                    return false;
                }
                storeElement(result, position, data, offset, (int) index);
                return true;
            }
            case CARDINALITY -> {
                ((LongVector) result).values()[position] = count;
                return true;
            }
            case ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER -> {
                long dimension = ((LongVector) vectors[1]).values()[position];
                if (count == 0 || dimension != 1) {
                    return false;
                }
                ((LongVector) result).values()[position] = switch (function) {
                    case ARRAY_LENGTH -> count;
                    case ARRAY_LOWER -> lowerBound;
                    default -> lowerBound + count - 1L;
                };
                return true;
            }
            case ARRAY_TO_STRING, STRING_AGG -> {
                String separator = ((BytesVector) vectors[1]).getString(position);
                String nullText = vectors.length > 2 && !vectors[2].isNull(position)
                        ? ((BytesVector) vectors[2]).getString(position) : null;
                DataType elementType = arguments[0].type().element();
                text.setLength(0);
                boolean first = true;
                for (int index = 0; index < count; index++) {
                    boolean isNull = ArrayValue.isNull(data, offset, index);
                    if (isNull && nullText == null) {
                        continue;
                    }
                    if (!first) {
                        text.append(separator);
                    }
                    first = false;
                    if (isNull) {
                        text.append(nullText);
                    } else {
                        ArrayValue.appendElement(text, elementType, data, offset, index);
                    }
                }
                if (first && function == Function.STRING_AGG) {
                    return false; // string_agg of only NULLs (array_agg kept them) is NULL
                }
                ((BytesVector) result).set(position, text.toString().getBytes(StandardCharsets.UTF_8));
                return true;
            }
            default -> throw new IllegalStateException("not an array function: " + function);
        }
    }

    /** {@code left || right}: NULL only when both are; the result starts at the left array's lower bound. */
    private boolean concatenate(BytesVector result, int position) {
        int lowerBound = 0;
        boolean any = false;
        for (ColumnVector vector : vectors) {
            if (vector.isNull(position)) {
                continue;
            }
            BytesVector arrays = (BytesVector) vector;
            byte[] data = arrays.data();
            int offset = arrays.offset(position);
            int count = ArrayValue.count(data, offset);
            if (!any || builder.count() == 0) {
                lowerBound = ArrayValue.lowerBound(data, offset);
            }
            any = true;
            for (int index = 0; index < count; index++) {
                builder.addFrom(data, offset, index);
            }
        }
        if (!any) {
            return false;
        }
        result.set(position, builder.build(lowerBound));
        return true;
    }

    private void addElement(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            builder.addNull();
            return;
        }
        switch (vector) {
            case LongVector longs -> builder.addLong(longs.values()[position]);
            case DoubleVector doubles -> builder.addDouble(doubles.values()[position]);
            case BytesVector bytes -> builder.addBytes(bytes.data(), bytes.offset(position), bytes.length(position));
        }
    }

    static void storeElement(ColumnVector result, int position, byte[] data, int offset, int index) {
        switch (result) {
            case LongVector longs -> longs.values()[position] = ArrayValue.longAt(data, offset, index);
            case DoubleVector doubles -> doubles.values()[position] = ArrayValue.doubleAt(data, offset, index);
            case BytesVector bytes -> bytes.set(position, data, ArrayValue.bytesOffset(data, offset, index),
                    ArrayValue.bytesLength(data, offset, index));
        }
    }

    /** {@code value op ANY/ALL (array)} at {@code position}; false when the result is NULL. */
    private boolean quantified(LongVector result, int position) {
        ColumnVector value = vectors[0];
        ColumnVector arrayVector = vectors[1];
        if (arrayVector.isNull(position)) {
            return false;
        }
        BytesVector arrays = (BytesVector) arrayVector;
        byte[] data = arrays.data();
        int offset = arrays.offset(position);
        int count = ArrayValue.count(data, offset);
        if (count == 0) {
            result.values()[position] = all ? 1 : 0;
            return true;
        }
        if (value.isNull(position)) {
            return false;
        }
        boolean sawNull = false;
        for (int index = 0; index < count; index++) {
            if (ArrayValue.isNull(data, offset, index)) {
                sawNull = true;
                continue;
            }
            int comparison = compare(value, position, data, offset, index);
            boolean holds = ((comparisonMask >>> (comparison + 1)) & 1) != 0;
            if (holds != all) {
                // ANY found a match, or ALL found a counterexample.
                result.values()[position] = holds ? 1 : 0;
                return true;
            }
        }
        if (sawNull) {
            return false;
        }
        result.values()[position] = all ? 1 : 0;
        return true;
    }

    private int compare(ColumnVector value, int position, byte[] data, int offset, int index) {
        VectorKind kind = arguments[1].type().element().vectorKind();
        return switch (kind) {
            case LONG -> Long.compare(((LongVector) value).values()[position], ArrayValue.longAt(data, offset, index));
            case DOUBLE -> ValueOrder.compareDoubles(((DoubleVector) value).values()[position], ArrayValue.doubleAt(data, offset, index));
            case BYTES -> {
                BytesVector bytes = (BytesVector) value;
                int start = ArrayValue.bytesOffset(data, offset, index);
                int compared = Arrays.compareUnsigned(bytes.data(), bytes.offset(position),
                        bytes.offset(position) + bytes.length(position), data, start, start + ArrayValue.bytesLength(data, offset, index));
                yield Integer.signum(compared);
            }
        };
    }
}
