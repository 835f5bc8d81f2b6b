package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * One aggregate of an aggregate node: {@code function(DISTINCT? input column argument)} with result
 * type {@code resultType}. {@code argument} is -1 for count(*). {@code stateTypes} is the layout of
 * its intermediate state between PARTIAL and FINAL (decided by the engine's aggregate
 * implementation; the planner asks {@code AggregateStates.stateTypes}). {@code filter} is the input
 * column of a boolean {@code FILTER (WHERE ...)} condition (only rows where it is true are
 * aggregated; NULL counts as false), or -1 for none; it applies to raw rows (SINGLE and PARTIAL),
 * FINAL combines states that were already filtered.
 */
public record AggregateCall(AggregateFunction function, int argument, boolean distinct, DataType argumentType,
                            DataType resultType, List<DataType> stateTypes, String name, int filter) {
    public AggregateCall {
        stateTypes = List.copyOf(stateTypes);
    }

    /** A call without a FILTER clause. */
    public AggregateCall(AggregateFunction function, int argument, boolean distinct, DataType argumentType,
                         DataType resultType, List<DataType> stateTypes, String name) {
        this(function, argument, distinct, argumentType, resultType, stateTypes, name, -1);
    }
}
