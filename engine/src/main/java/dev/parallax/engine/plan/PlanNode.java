package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * A node of a physical plan: an immutable description of an operator, produced by the planner and
 * instantiated by the executor (once per participant for nodes under a Gather). No Calcite type
 * crosses into these classes.
 */
public sealed interface PlanNode
        permits SeqScanNode, FilterNode, ProjectNode, AggregateNode, GatherNode, GatherMergeNode, SortNode, LimitNode,
        ValuesNode, GenerateSeriesNode, InsertNode, AppendNode, IndexScanNode, PartitionAppendNode, UniqueIndexScanNode,
        ModifyTableNode, HashJoinNode, NestedLoopJoinNode, WindowNode, UnnestNode,
        CorrelateNode, ProjectSetNode, RecursiveUnionNode, WorkTableScanNode, GroupingSetsExpandNode {
    List<PlanNode> inputs();

    /** Types of the output columns, in order. */
    List<DataType> outputTypes();

    PlanEstimate estimate();
}
