package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.Objects;

/**
 * One function of a window node: {@link WindowFunction#AGGREGATE} with the aggregate call it
 * computes over the window's frame (a SINGLE-mode call: raw input rows, no DISTINCT, no FILTER),
 * or another window function with its argument columns of the node's input ({@code arguments}:
 * none for the ranking functions, PERCENT_RANK and CUME_DIST; the bucket count for NTILE; value,
 * offset and default for LAG and LEAD, of which the last two may be absent; value and n for
 * NTH_VALUE; the value for FIRST_VALUE and LAST_VALUE). {@code valueType} is the result type of
 * the functions that return a value, the value's type (a default column has it too).
 */
public record WindowCall(WindowFunction function, AggregateCall aggregate, int[] arguments, DataType valueType) {
    public WindowCall {
        Objects.requireNonNull(function, "function");
        if ((function == WindowFunction.AGGREGATE) != (aggregate != null)) {
            throw new IllegalArgumentException("an aggregate call goes with AGGREGATE and only with it: " + function);
        }
        arguments = arguments.clone();
        int minimum = switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE, PERCENT_RANK, CUME_DIST -> 0;
            case NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE -> 1;
            case NTH_VALUE -> 2;
        };
        int maximum = switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, AGGREGATE, PERCENT_RANK, CUME_DIST -> 0;
            case NTILE, FIRST_VALUE, LAST_VALUE -> 1;
            case NTH_VALUE -> 2;
            case LAG, LEAD -> 3;
        };
        if (arguments.length < minimum || arguments.length > maximum) {
            throw new IllegalArgumentException(function + " takes " + minimum + " to " + maximum + " arguments, not " + arguments.length);
        }
        if (function.readsValue() != (valueType != null)) {
            throw new IllegalArgumentException("a value type goes with the functions returning a value and only with them: " + function);
        }
    }

    /** A ranking function (ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST). */
    public static WindowCall ranking(WindowFunction function) {
        return new WindowCall(function, null, new int[0], null);
    }

    /** An aggregate over the window's frame. */
    public static WindowCall aggregate(AggregateCall aggregate) {
        return new WindowCall(WindowFunction.AGGREGATE, Objects.requireNonNull(aggregate, "aggregate"), new int[0], null);
    }

    /** NTILE over the bucket count in column {@code buckets}. */
    public static WindowCall ntile(int buckets) {
        return new WindowCall(WindowFunction.NTILE, null, new int[] {buckets}, null);
    }

    /** LAG, LEAD, FIRST_VALUE, LAST_VALUE or NTH_VALUE over the argument columns, returning a {@code valueType}. */
    public static WindowCall value(WindowFunction function, int[] arguments, DataType valueType) {
        return new WindowCall(function, null, arguments, Objects.requireNonNull(valueType, "valueType"));
    }

    @Override
    public int[] arguments() {
        return arguments.clone();
    }

    /**
     * The type of the column this function adds: bigint for ROW_NUMBER, RANK and DENSE_RANK, and
     * for NTILE as Calcite types it (PostgreSQL's is integer: the values are the same), double
     * precision for PERCENT_RANK and CUME_DIST, the value's type for
     * the functions returning a value, else the aggregate's result type.
     */
    public DataType resultType() {
        return switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE -> DataType.BIGINT;
            case PERCENT_RANK, CUME_DIST -> DataType.DOUBLE;
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> valueType;
            case AGGREGATE -> aggregate.resultType();
        };
    }
}
