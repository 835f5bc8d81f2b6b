package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.partition.PartitionPruning;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.type.DataType;

import java.util.List;
import java.util.Objects;

/**
 * The rows of the partitions of {@code parent} that planning kept, one input per partition
 * (PostgreSQL's Append over a partitioned table). {@code inputOrdinals[i]} is the ordinal in
 * {@code router} (the partitions when planned) of input i's partition.
 *
 * <p>With {@code runtimePruning}, the inputs whose partitions cannot match the bound parameter
 * values are removed when execution starts, before any of their operators is built (EXPLAIN
 * ANALYZE: {@code Subplans Removed: N}). When {@code parallel}, it is a Parallel Append: its inputs
 * are parallel-aware chains sharing one scan cursor per partition among the Gather's participants,
 * and each participant starts at a different input so that they spread over the partitions. No
 * inputs means planning removed every partition (PostgreSQL's {@code One-Time Filter: false}).
 */
public record PartitionAppendNode(Table parent, PartitionRouter router, List<PlanNode> inputs, int[] inputOrdinals,
                                  List<DataType> outputTypes, PartitionPruning runtimePruning, boolean parallel,
                                  PlanEstimate estimate) implements PlanNode {
    public PartitionAppendNode {
        Objects.requireNonNull(parent, "parent");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(estimate, "estimate");
        inputs = List.copyOf(inputs);
        inputOrdinals = inputOrdinals.clone();
        outputTypes = List.copyOf(outputTypes);
        if (inputs.size() != inputOrdinals.length) {
            throw new IllegalArgumentException(inputs.size() + " inputs but " + inputOrdinals.length + " ordinals");
        }
        for (PlanNode input : inputs) {
            if (!input.outputTypes().equals(outputTypes)) {
                throw new IllegalArgumentException("Append input types " + input.outputTypes() + " differ from " + outputTypes);
            }
        }
    }

    @Override
    public int[] inputOrdinals() {
        return inputOrdinals.clone();
    }

    /** The same Append over other inputs (for the same partitions, in the same order). */
    public PartitionAppendNode withInputs(List<PlanNode> newInputs, boolean newParallel, PlanEstimate newEstimate) {
        return new PartitionAppendNode(parent, router, newInputs, inputOrdinals, outputTypes, runtimePruning, newParallel, newEstimate);
    }
}
