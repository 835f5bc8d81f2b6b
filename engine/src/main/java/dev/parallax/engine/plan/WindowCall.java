package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.Objects;

/**
 * One function of a window node: a ranking function ({@code aggregate} null), or
 * {@link WindowFunction#AGGREGATE} with the aggregate call it computes over the window's frame
 * (a SINGLE-mode call: raw input rows, no DISTINCT, no FILTER).
 */
public record WindowCall(WindowFunction function, AggregateCall aggregate) {
    public WindowCall {
        Objects.requireNonNull(function, "function");
        if ((function == WindowFunction.AGGREGATE) != (aggregate != null)) {
            throw new IllegalArgumentException("an aggregate call goes with AGGREGATE and only with it: " + function);
        }
    }

    /** A ranking function. */
    public static WindowCall ranking(WindowFunction function) {
        return new WindowCall(function, null);
    }

    /** An aggregate over the window's frame. */
    public static WindowCall aggregate(AggregateCall aggregate) {
        return new WindowCall(WindowFunction.AGGREGATE, Objects.requireNonNull(aggregate, "aggregate"));
    }

    /** The type of the column this function adds: bigint for the ranking functions, else the aggregate's result type. */
    public DataType resultType() {
        return aggregate == null ? DataType.BIGINT : aggregate.resultType();
    }
}
