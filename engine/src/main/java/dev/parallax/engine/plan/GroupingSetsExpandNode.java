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
