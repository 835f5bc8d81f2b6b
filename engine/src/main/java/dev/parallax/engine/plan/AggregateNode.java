package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Groups by input columns {@code groupKeys} and computes {@code calls}. Output: the group key
 * columns, then per call its result (SINGLE, FINAL) or its state columns (PARTIAL). With no group
 * keys it emits exactly one row, also for empty input (SINGLE and FINAL).
 * <p>{@code groupingSets} is null for a plain GROUP BY; for GROUPING SETS, ROLLUP and CUBE the input
 * is a {@link GroupingSetsExpandNode}, the last group key is the set ordinal, and with an empty set
 * {@code ()} the node emits that set's row also for empty input. A SINGLE aggregate's expansion
 * reads raw rows; a FINAL's reads the gathered rows of a PARTIAL aggregate grouped by the union of
 * the sets' keys (with no grouping sets of its own), so each set is combined from the few partial
 * groups instead of hashing every input row once per set.
 */
public record AggregateNode(PlanNode input, AggregateMode mode, int[] groupKeys, List<AggregateCall> calls,
                            PlanEstimate estimate, GroupingSets groupingSets) implements PlanNode {
    public AggregateNode {
        groupKeys = groupKeys.clone();
        calls = List.copyOf(calls);
    }

    /** A plain GROUP BY (or none). */
    public AggregateNode(PlanNode input, AggregateMode mode, int[] groupKeys, List<AggregateCall> calls, PlanEstimate estimate) {
        this(input, mode, groupKeys, calls, estimate, null);
    }

    @Override
    public int[] groupKeys() {
        return groupKeys.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> inputTypes = input.outputTypes();
        List<DataType> types = new ArrayList<>();
        for (int key : groupKeys) {
            types.add(inputTypes.get(key));
        }
        for (AggregateCall call : calls) {
            switch (mode) {
                case PARTIAL -> types.addAll(call.stateTypes());
                case SINGLE, FINAL -> types.add(call.resultType());
            }
        }
        return types;
    }

    /**
     * FINAL: the input column holding the first call's first state column. A Partial Aggregate's
     * output holds its keys, then the states; an expansion of it appends the expanded keys and the
     * set ordinal, so the states stay right after the partial keys.
     */
    public int firstStateColumn() {
        return input instanceof GroupingSetsExpandNode expand ? expand.keyColumns().length : groupKeys.length;
    }

    @Override
    public String toString() {
        return "AggregateNode[" + mode + " keys=" + Arrays.toString(groupKeys) + " calls=" + calls + "]";
    }
}
