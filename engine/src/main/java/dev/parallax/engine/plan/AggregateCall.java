package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * One aggregate of an aggregate node: {@code function(DISTINCT? input column argument)} with result
 * type {@code resultType}. {@code argument} is -1 for count(*). {@code stateTypes} is the layout of
 * its intermediate state between PARTIAL and FINAL (decided by the engine's aggregate
 * implementation; the planner asks {@code AggregateStates.stateTypes}).
 */
public record AggregateCall(AggregateFunction function, int argument, boolean distinct, DataType argumentType,
                            DataType resultType, List<DataType> stateTypes, String name) {
    public AggregateCall {
        stateTypes = List.copyOf(stateTypes);
    }
}
