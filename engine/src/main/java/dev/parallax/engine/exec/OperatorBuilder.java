package dev.parallax.engine.exec;

import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.explain.InstrumentedOperator;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.operator.aggregate.AggregateOperatorFactory;
import dev.parallax.engine.operator.append.AppendOperatorFactory;
import dev.parallax.engine.operator.append.PartitionAppendOperatorFactory;
import dev.parallax.engine.operator.scan.UniqueIndexScanOperatorFactory;
import dev.parallax.engine.operator.dml.InsertOperatorFactory;
import dev.parallax.engine.operator.filter.FilterOperatorFactory;
import dev.parallax.engine.operator.gather.GatherMergeOperatorFactory;
import dev.parallax.engine.operator.gather.GatherOperatorFactory;
import dev.parallax.engine.operator.join.JoinOperatorFactory;
import dev.parallax.engine.operator.join.SharedJoinBuild;
import dev.parallax.engine.operator.limit.LimitOperatorFactory;
import dev.parallax.engine.operator.project.ProjectOperatorFactory;
import dev.parallax.engine.operator.recursive.RecursiveUnionOperatorFactory;
import dev.parallax.engine.operator.recursive.WorkTable;
import dev.parallax.engine.operator.recursive.WorkTableScanOperatorFactory;
import dev.parallax.engine.operator.scan.IndexScanOperatorFactory;
import dev.parallax.engine.operator.scan.SeqScanOperatorFactory;
import dev.parallax.engine.operator.sort.SortOperatorFactory;
import dev.parallax.engine.operator.source.GenerateSeriesOperatorFactory;
import dev.parallax.engine.operator.source.ValuesOperatorFactory;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Instantiates operators for one participant of an execution (the leader, or one worker of a
 * Gather). Each node type has its own factory; this class only dispatches and adds statistics.
 * Participants of the same Gather share a {@link ParallelScanState}; everything else is per
 * participant.
 */
public final class OperatorBuilder {
    /** Participant number of the leader; workers are numbered from 0 as EXPLAIN prints them. */
    public static final int LEADER = -1;

    private final ExecutionContext context;
    private final ExecutionStatistics statistics;
    private final int participant;
    private final ParallelScanState parallelScans;
    /** Cursors opened ahead for serial scans not built yet ({@link #preopenScan}); null until the first. */
    private Map<SeqScanNode, ScanCursor> preopenedScans;
    /**
     * The work tables of the Recursive Unions built so far, by number, for their WorkTable Scans;
     * shared with the builders derived from this one (a recursive term's correlated runs).
     */
    private final Map<Integer, WorkTable> workTables;

    private OperatorBuilder(ExecutionContext context, ExecutionStatistics statistics, int participant,
                            ParallelScanState parallelScans, Map<Integer, WorkTable> workTables) {
        this.context = Objects.requireNonNull(context, "context");
        this.statistics = statistics;
        this.participant = participant;
        this.parallelScans = parallelScans;
        this.workTables = workTables;
    }

    static OperatorBuilder forLeader(ExecutionContext context, ExecutionStatistics statistics) {
        return new OperatorBuilder(context, statistics, LEADER, null, new HashMap<>());
    }

    /** A builder for {@code participantNumber} ({@link #LEADER} or a worker) of a Gather sharing {@code scans}. */
    public OperatorBuilder forParticipant(int participantNumber, ParallelScanState scans) {
        return new OperatorBuilder(context, statistics, participantNumber, Objects.requireNonNull(scans, "scans"), new HashMap<>());
    }

    /**
     * A builder for one run of a correlated inner plan ({@link dev.parallax.engine.plan.CorrelateNode})
     * in this participant, with {@code runContext}'s parameters; the inner plan runs serially.
     */
    public OperatorBuilder forCorrelatedRun(ExecutionContext runContext) {
        return new OperatorBuilder(runContext, statistics, participant, null, workTables);
    }

    /** Makes {@code workTable} the one the WorkTable Scans numbered {@code number} read (a Recursive Union builds it first). */
    public void registerWorkTable(int number, WorkTable workTable) {
        workTables.put(number, Objects.requireNonNull(workTable, "workTable"));
    }

    /** The work table registered under {@code number}, or null. */
    public WorkTable workTable(int number) {
        return workTables.get(number);
    }

    public ExecutionContext context() {
        return context;
    }

    /** {@link #LEADER} or the worker number. */
    public int participant() {
        return participant;
    }

    /** Statistics of {@code node} when EXPLAIN ANALYZE collects them, else null. */
    public NodeStatistics statistics(PlanNode node) {
        return statistics == null ? null : statistics.node(node);
    }

    /**
     * The cursor a parallel scan of {@code node} claims chunks from, shared by all participants of
     * the enclosing Gather (which closes it); null when the scan runs outside a Gather and must open
     * a cursor of its own.
     */
    public ScanCursor sharedScanCursor(SeqScanNode node) {
        if (parallelScans == null) {
            return null;
        }
        return parallelScans.cursor(node);
    }

    /**
     * Gives the serial scan of {@code node}, when this builder builds it, a cursor opened ahead
     * (a Partition Append opens its partitions' scans together: {@link dev.parallax.engine.storage.ConsistentScans}).
     */
    public void preopenScan(SeqScanNode node, ScanCursor cursor) {
        if (preopenedScans == null) {
            preopenedScans = new IdentityHashMap<>();
        }
        preopenedScans.put(node, cursor);
    }

    /** Whether a cursor was opened ahead for {@code node} and not taken yet. */
    public boolean hasPreopenedScan(SeqScanNode node) {
        return preopenedScans != null && preopenedScans.containsKey(node);
    }

    /** The cursor opened ahead for {@code node}, now owned by the caller (who closes it), or null. */
    public ScanCursor takePreopenedScan(SeqScanNode node) {
        return preopenedScans == null ? null : preopenedScans.remove(node);
    }

    /**
     * The build state of {@code join} shared by all participants of the enclosing Gather, or null
     * when the join runs outside a Gather (its operator then builds a table of its own).
     */
    public SharedJoinBuild sharedJoinBuild(PlanNode join) {
        return parallelScans == null ? null : parallelScans.joinBuild(join);
    }

    /** The parallel_scan_chunk_pages setting of this execution. */
    public int scanChunkPages() {
        return context.settings().getInt("parallel_scan_chunk_pages");
    }

    /** Creates the operator for {@code node} and its inputs. */
    public Operator build(PlanNode node) {
        Operator operator = switch (node) {
            case dev.parallax.engine.plan.SeqScanNode scan -> SeqScanOperatorFactory.create(scan, this);
            case dev.parallax.engine.plan.FilterNode filter -> FilterOperatorFactory.create(filter, this);
            case dev.parallax.engine.plan.ProjectNode project -> ProjectOperatorFactory.create(project, this);
            case dev.parallax.engine.plan.AggregateNode aggregate -> AggregateOperatorFactory.create(aggregate, this);
            case dev.parallax.engine.plan.GroupingSetsExpandNode expand ->
                    dev.parallax.engine.operator.aggregate.GroupingSetsExpandOperatorFactory.create(expand, this);
            case dev.parallax.engine.plan.GatherNode gather -> GatherOperatorFactory.create(gather, this);
            case dev.parallax.engine.plan.GatherMergeNode gatherMerge -> GatherMergeOperatorFactory.create(gatherMerge, this);
            case dev.parallax.engine.plan.SortNode sort -> SortOperatorFactory.create(sort, this);
            case dev.parallax.engine.plan.LimitNode limit -> LimitOperatorFactory.create(limit, this);
            case dev.parallax.engine.plan.ValuesNode values -> ValuesOperatorFactory.create(values, this);
            case dev.parallax.engine.plan.GenerateSeriesNode series -> GenerateSeriesOperatorFactory.create(series, this);
            case dev.parallax.engine.plan.ProjectSetNode projectSet ->
                    dev.parallax.engine.operator.project.ProjectSetOperatorFactory.create(projectSet, this);
            case dev.parallax.engine.plan.UnnestNode unnest ->
                    dev.parallax.engine.operator.unnest.UnnestOperatorFactory.create(unnest, this);
            case dev.parallax.engine.plan.InsertNode insert -> InsertOperatorFactory.create(insert, this);
            case dev.parallax.engine.plan.ModifyTableNode modify ->
                    dev.parallax.engine.operator.dml.ModifyTableOperatorFactory.create(modify, this);
            case dev.parallax.engine.plan.AppendNode append -> AppendOperatorFactory.create(append, this);
            case dev.parallax.engine.plan.IndexScanNode indexScan -> IndexScanOperatorFactory.create(indexScan, this);
            case dev.parallax.engine.plan.PartitionAppendNode append -> PartitionAppendOperatorFactory.create(append, this);
            case dev.parallax.engine.plan.UniqueIndexScanNode lookup -> UniqueIndexScanOperatorFactory.create(lookup, this);
            case dev.parallax.engine.plan.HashJoinNode hashJoin -> JoinOperatorFactory.create(hashJoin, this);
            case dev.parallax.engine.plan.NestedLoopJoinNode nestedLoop -> JoinOperatorFactory.create(nestedLoop, this);
            case dev.parallax.engine.plan.WindowNode window ->
                    dev.parallax.engine.operator.window.WindowOperatorFactory.create(window, this);
            case dev.parallax.engine.plan.CorrelateNode correlate ->
                    dev.parallax.engine.operator.join.CorrelateOperatorFactory.create(correlate, this);
            case dev.parallax.engine.plan.RecursiveUnionNode recursiveUnion -> RecursiveUnionOperatorFactory.create(recursiveUnion, this);
            case dev.parallax.engine.plan.WorkTableScanNode workTableScan -> WorkTableScanOperatorFactory.create(workTableScan, this);
        };
        NodeStatistics nodeStatistics = statistics(node);
        if (nodeStatistics == null) {
            return operator;
        }
        return new InstrumentedOperator(operator, nodeStatistics.participant(participant));
    }
}
