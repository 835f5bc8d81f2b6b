package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The input of a GROUPING SETS / ROLLUP / CUBE aggregation: each input row once per grouping set,
 * so that one hash aggregation over (keys, set ordinal) computes every set from one scan of the
 * input (Spark's Expand). Output: the input's columns unchanged (the aggregates' arguments, which
 * may be key columns too), then the values of {@code keyColumns}, NULL where the set does not group
 * by that key, then the set's ordinal (integer). {@code sets.get(ordinal)} lists the positions in
 * {@code keyColumns} the set groups by.
 * <p>Under a serial aggregation it expands the raw rows; in a parallel plan it sits above the Gather
 * and expands the Partial Aggregate's groups (keys, then states), which the Finalize Aggregate
 * combines per set: the rows hashed once per set are then the few partial groups, not the input.
 */
public record GroupingSetsExpandNode(PlanNode input, int[] keyColumns, GroupingSets sets, PlanEstimate estimate)
        implements PlanNode {
    public GroupingSetsExpandNode {
        keyColumns = keyColumns.clone();
    }

    @Override
    public int[] keyColumns() {
        return keyColumns.clone();
    }

    /** The group keys of the aggregation over this node: the expanded key copies, then the set ordinal. */
    public int[] aggregationKeys() {
        int first = input.outputTypes().size();
        int[] keys = new int[keyColumns.length + 1];
        for (int key = 0; key < keys.length; key++) {
            keys[key] = first + key;
        }
        return keys;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> inputTypes = input.outputTypes();
        List<DataType> types = new ArrayList<>(inputTypes);
        for (int key : keyColumns) {
            types.add(inputTypes.get(key));
        }
        types.add(DataType.INTEGER);
        return types;
    }
}
