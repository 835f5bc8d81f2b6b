package dev.parallax.planner.query.cost;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.operator.dml.ParallelInsertOperator;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.GroupingSetsExpandNode;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.LimitNode;
import dev.parallax.engine.plan.ParallelDegree;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.ProjectSetNode;
import dev.parallax.engine.plan.SetReturningFunction;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.settings.Settings;


/**
 * Chooses PostgreSQL's parallel plan shapes for a serial plan when they cost less:
 * <pre>
 *   [Limit/Sort/Project] ← Finalize Aggregate ← Gather ← Partial Aggregate ← [Filter/Project] ← Parallel Seq Scan
 *   [Limit/Sort/Project] ← Finalize Aggregate (sets) ← expansion ← Gather ← Partial Aggregate (all keys) ← ... (GROUPING SETS)
 *   [Limit/Sort/Project] ← Gather ← [Filter/Project] ← Parallel Seq Scan
 *   [Finalize Aggregate ← ] Gather [← Partial Aggregate] ← Parallel Hash Join ← (partial probe, Parallel Hash or shared Hash)
 *   [Limit/Project] ← Gather Merge ← Sort (top-N under a LIMIT) ← [Filter/Project] ← Parallel Seq Scan
 * </pre>
 * Degree by {@link ParallelDegree}; a parallel path costs its work divided by the parallel divisor
 * plus parallel_setup_cost plus parallel_tuple_cost per row through the Gather. A sort over a scan
 * chain is either done once above a Gather or by every participant below a Gather Merge, whichever
 * costs less (cost_gather_merge: the merge's comparisons on the merged rows). With
 * debug_parallel_query on, a parallel-safe plan without a Gather gets a single-copy Gather on top.
 */
public final class ParallelPlanner {
    private final Settings settings;
    private final CostModel costModel;
    private final double setupCost;
    private final double tupleCost;
    private final boolean leaderParticipation;

    public ParallelPlanner(Settings settings, CostModel costModel) {
        this.settings = settings;
        this.costModel = costModel;
        this.setupCost = settings.getDouble("parallel_setup_cost");
        this.tupleCost = settings.getDouble("parallel_tuple_cost");
        this.leaderParticipation = settings.getBoolean("parallel_leader_participation");
    }

    public PlanNode plan(PlanNode serial) {
        PlanNode chosen = parallelize(serial);
        if (settings.debugParallelQuery() && !containsGather(chosen) && isParallelSafe(chosen)) {
            PlanEstimate estimate = chosen.estimate();
            return new GatherNode(chosen, 1, true, CostModel.gather(estimate, estimate.rows(), setupCost, tupleCost));
        }
        return chosen;
    }

    private PlanNode parallelize(PlanNode node) {
        return switch (node) {
            case LimitNode limit -> rebuildAbove(limit, parallelize(limit.input()));
            // The window runs in the leader over its sorted input, which may itself be parallel.
            case dev.parallax.engine.plan.WindowNode window -> rebuildAbove(window, parallelize(window.input()));
            case SortNode sort -> sort(sort);
            case ProjectNode project when !isScanChain(project) -> rebuildAbove(project, parallelize(project.input()));
            case ProjectSetNode projectSet when !isScanChain(projectSet) -> rebuildAbove(projectSet, parallelize(projectSet.input()));
            case FilterNode filter when !isScanChain(filter) -> filterAbove(filter);
            case AggregateNode aggregate when aggregate.mode() == AggregateMode.SINGLE -> aggregate(aggregate);
            case AppendNode append -> append(append);
            case HashJoinNode join -> gatherJoin(join);
            case NestedLoopJoinNode join -> gatherJoin(join);
            case InsertNode insert -> insertAbove(insert);
            default -> isScanChain(node) ? gatherScanChain(node) : node;
        };
    }

    /**
     * INSERT ... SELECT: the leader inserts what a parallel query below it produces (the query's
     * scans read the snapshot taken when they open, so rows the insert adds are not read back).
     */
    private PlanNode insertAbove(InsertNode insert) {
        PlanNode input = parallelize(insert.input());
        if (input == insert.input() && isScanChain(input) && ParallelInsertOperator.writesInParticipants(insert.table())) {
            input = gatherWrittenScanChain(input);
        }
        if (input == insert.input()) {
            return insert;
        }
        PlanEstimate estimate = insert.estimate();
        PlanEstimate serialInput = insert.input().estimate();
        PlanEstimate parallelInput = input.estimate();
        return new InsertNode(insert.table(), input, new PlanEstimate(
                estimate.startupCost() - serialInput.startupCost() + parallelInput.startupCost(),
                estimate.totalCost() - serialInput.totalCost() + parallelInput.totalCost(), estimate.rows(), estimate.width()));
    }

    /**
     * {@code Gather ← chain} under an INSERT whose participants write the rows themselves
     * ({@link ParallelInsertOperator}): no row crosses the Gather, so parallel_tuple_cost is not
     * charged, and the parallel plan wins whenever the scan is large enough for workers.
     */
    private PlanNode gatherWrittenScanChain(PlanNode chain) {
        int workers = workers(chain);
        if (workers == 0) {
            return chain;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode parallel = parallelChain(chain, divisor);
        GatherNode gather = new GatherNode(parallel, workers, false,
                CostModel.gather(parallel.estimate(), chain.estimate().rows(), setupCost, 0));
        return gather.estimate().totalCost() < chain.estimate().totalCost() ? gather : chain;
    }

    /**
     * A join at the top of a plan part: {@code Gather ← partial join} when its probe side can run
     * in parallel and that costs less; otherwise the serial join over inputs that may each get a
     * Gather of their own.
     */
    private PlanNode gatherJoin(PlanNode join) {
        PlanNode serial = serialJoinOverParallelInputs(join);
        int workers = workers(join);
        if (workers == 0) {
            return serial;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode partial = partial(join, divisor);
        if (partial == null) {
            return serial;
        }
        GatherNode gather = new GatherNode(partial, workers, false,
                CostModel.gather(partial.estimate(), join.estimate().rows(), setupCost, tupleCost));
        return gather.estimate().totalCost() < serial.estimate().totalCost() ? gather : serial;
    }

    /** A filter over a join: {@code Gather ← Filter ← partial join} when that pays, else the filter over its input's plan. */
    private PlanNode filterAbove(FilterNode filter) {
        PlanNode input = parallelize(filter.input());
        PlanNode serial = rebuildAbove(filter, input);
        int workers = workers(filter);
        if (workers == 0 || !(input instanceof GatherNode || filter.input() instanceof HashJoinNode
                || filter.input() instanceof NestedLoopJoinNode)) {
            return serial;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode partial = partial(filter, divisor);
        if (partial == null) {
            return serial;
        }
        GatherNode gather = new GatherNode(partial, workers, false,
                CostModel.gather(partial.estimate(), filter.estimate().rows(), setupCost, tupleCost));
        return gather.estimate().totalCost() < serial.estimate().totalCost() ? gather : serial;
    }

    /** The join with each input parallelized on its own (a Gather below the join where it pays). */
    private PlanNode serialJoinOverParallelInputs(PlanNode node) {
        return switch (node) {
            case HashJoinNode join -> {
                PlanNode probe = parallelize(join.probe());
                PlanNode build = parallelize(join.build());
                if (probe == join.probe() && build == join.build()) {
                    yield join;
                }
                yield join.withInputs(probe, build, false, shifted(join.estimate(), join.probe(), probe, join.build(), build));
            }
            case NestedLoopJoinNode join -> {
                PlanNode outer = parallelize(join.outer());
                PlanNode inner = parallelize(join.inner());
                if (outer == join.outer() && inner == join.inner()) {
                    yield join;
                }
                yield new NestedLoopJoinNode(outer, inner, join.joinType(), join.condition(), join.outputColumns(),
                        shifted(join.estimate(), join.outer(), outer, join.inner(), inner));
            }
            default -> node;
        };
    }

    private static PlanEstimate shifted(PlanEstimate old, PlanNode oldFirst, PlanNode newFirst, PlanNode oldSecond, PlanNode newSecond) {
        double shift = newFirst.estimate().totalCost() - oldFirst.estimate().totalCost()
                + newSecond.estimate().totalCost() - oldSecond.estimate().totalCost();
        return new PlanEstimate(old.startupCost() + shift, old.totalCost() + shift, old.rows(), old.width());
    }

    /**
     * The partial form of {@code node} that each participant of a Gather runs on its share of the
     * rows, estimates per participant, or null when it has none. A scan chain reads a share of its
     * table's pages; a join is partial when its probe (outer) side is: its build side is then
     * either partial too, built together by all participants (Parallel Hash), or read once by the
     * first participant and shared. Joins that emit unmatched build rows (RIGHT, FULL) stay serial:
     * no participant could know that a build row found no match in the others' shares.
     */
    private PlanNode partial(PlanNode node, double divisor) {
        if (isScanChain(node)) {
            return parallelChain(node, divisor);
        }
        return switch (node) {
            case FilterNode filter when isParallelSafe(filter.condition()) -> {
                PlanNode input = partial(filter.input(), divisor);
                yield input == null ? null : new FilterNode(input, filter.condition(), partialFilterEstimate(filter, input));
            }
            case ProjectNode project when project.expressions().stream().allMatch(ParallelPlanner::isParallelSafe) -> {
                PlanNode input = partial(project.input(), divisor);
                yield input == null ? null
                        : new ProjectNode(input, project.expressions(), costModel.project(input.estimate(), project.expressions(), project.outputTypes()));
            }
            case ProjectSetNode projectSet when isParallelSafe(projectSet) -> {
                PlanNode input = partial(projectSet.input(), divisor);
                yield input == null ? null : partialProjectSet(projectSet, input);
            }
            case HashJoinNode join when !join.joinType().preservesBuild()
                    && (join.residual() == null || isParallelSafe(join.residual())) -> {
                PlanNode probe = partial(join.probe(), divisor);
                if (probe == null) {
                    yield null;
                }
                PlanNode build = workers(join.build()) > 0 ? partial(join.build(), divisor) : null;
                boolean parallelBuild = build != null;
                if (!parallelBuild) {
                    if (!isParallelSafe(join.build()) || containsGather(join.build())) {
                        yield null;
                    }
                    build = join.build();
                }
                yield join.withInputs(probe, build, parallelBuild, partialEstimate(join.estimate(), divisor,
                        join.probe(), probe, parallelBuild ? join.build() : null, build));
            }
            case NestedLoopJoinNode join when !join.joinType().preservesBuild()
                    && (join.condition() == null || isParallelSafe(join.condition()))
                    && isParallelSafe(join.inner()) && !containsGather(join.inner()) -> {
                PlanNode outer = partial(join.outer(), divisor);
                yield outer == null ? null
                        : join.withOuter(outer, partialEstimate(join.estimate(), divisor, join.outer(), outer, null, null));
            }
            default -> null;
        };
    }

    /**
     * A partial join's estimate: rows and per-row work divided among the participants, the
     * inputs' costs replaced by their partial forms' (a shared serial build keeps its full cost).
     */
    private static PlanEstimate partialEstimate(PlanEstimate serial, double divisor, PlanNode oldProbe, PlanNode newProbe,
                                                PlanNode oldBuild, PlanNode newBuild) {
        double buildSaving = oldBuild == null ? 0 : oldBuild.estimate().totalCost() - newBuild.estimate().totalCost();
        double startup = serial.startupCost() - buildSaving;
        double probeRun = oldProbe.estimate().totalCost() - oldProbe.estimate().startupCost();
        double ownRun = Math.max(0, serial.totalCost() - serial.startupCost() - probeRun);
        double total = startup + newProbe.estimate().totalCost() - newProbe.estimate().startupCost() + ownRun / divisor;
        return new PlanEstimate(startup, total, Math.max(1, Math.rint(serial.rows() / divisor)), serial.width());
    }

    /**
     * A serial Append whose inputs each get their own parallel plan (a Gather per input when it
     * pays), as PostgreSQL plans a non-parallel Append; a Parallel Append is not planned.
     */
    private PlanNode append(AppendNode append) {
        java.util.List<PlanNode> inputs = append.inputs().stream().map(this::parallelize).toList();
        boolean changed = false;
        double shift = 0;
        for (int index = 0; index < inputs.size(); index++) {
            PlanNode before = append.inputs().get(index);
            PlanNode after = inputs.get(index);
            changed |= after != before;
            shift += after.estimate().totalCost() - before.estimate().totalCost();
        }
        if (!changed) {
            return append;
        }
        PlanEstimate old = append.estimate();
        double startupShift = inputs.getFirst().estimate().startupCost() - append.inputs().getFirst().estimate().startupCost();
        return new AppendNode(inputs, new PlanEstimate(old.startupCost() + startupShift, old.totalCost() + shift, old.rows(), old.width()));
    }

    private PlanNode aggregate(AggregateNode aggregate) {
        PlanNode input = aggregate.input();
        if (input instanceof AppendNode || aggregate.calls().stream().anyMatch(call -> call.function() == AggregateFunction.ARRAY_AGG)) {
            // UNION's duplicate elimination: the aggregate stays serial above the Append. array_agg keeps
            // its input's order (ARRAY(SELECT ... ORDER BY)), which partial aggregates would not.
            return rebuildAbove(aggregate, parallelize(input));
        }
        if (input instanceof GroupingSetsExpandNode expand && aggregate.calls().stream().noneMatch(AggregateCall::distinct)) {
            return groupingSetsAggregate(aggregate, expand);
        }
        if (!isScanChain(input)) {
            PlanNode parallelInput = parallelize(input);
            PlanNode serial = parallelInput == input ? aggregate : rebuildAbove(aggregate, parallelInput);
            boolean distinct = aggregate.calls().stream().anyMatch(AggregateCall::distinct);
            int workers = workers(input);
            if (distinct || workers == 0) {
                return serial;
            }
            double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
            PlanNode partialInput = partial(input, divisor);
            if (partialInput == null) {
                return serial;
            }
            PlanNode finalize = partialAggregate(aggregate, partialInput, workers, divisor);
            return finalize.estimate().totalCost() < serial.estimate().totalCost() ? finalize : serial;
        }
        boolean distinct = aggregate.calls().stream().anyMatch(AggregateCall::distinct);
        if (distinct) {
            // PostgreSQL cannot combine DISTINCT aggregates from workers: gather rows, aggregate above.
            return rebuildAbove(aggregate, gatherScanChain(input));
        }
        int workers = workers(input);
        if (workers == 0) {
            return aggregate;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode partialInput = parallelChain(input, divisor);
        AggregateNode finalize = partialAggregate(aggregate, partialInput, workers, divisor);
        return finalize.estimate().totalCost() < aggregate.estimate().totalCost() ? finalize : aggregate;
    }

    /**
     * GROUPING SETS / ROLLUP / CUBE as {@code Finalize Aggregate (keys, set) ← expansion ← Gather ←
     * Partial Aggregate (the union of the sets' keys) ← partial input}: each participant hashes its
     * rows once, by every key, as for a plain GROUP BY, and only the few partial groups are expanded
     * into their sets and combined, instead of every row being hashed once per set (TPC-H SF1
     * lineitem, rollup of two keys: 6-7x the plain GROUP BY's time before). Every aggregate that
     * runs as a Partial Aggregate combines its states this way; DISTINCT aggregates (and array_agg,
     * kept serial above) stay on the serial expansion.
     */
    private PlanNode groupingSetsAggregate(AggregateNode aggregate, GroupingSetsExpandNode expand) {
        PlanNode serial = rebuildAbove(aggregate, parallelize(expand));
        PlanNode rows = expand.input();
        int workers = workers(rows);
        if (workers == 0) {
            return serial;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode partialInput = partial(rows, divisor);
        if (partialInput == null) {
            return serial;
        }
        int[] unionKeys = expand.keyColumns();
        int calls = aggregate.calls().size();
        AggregateNode partial = new AggregateNode(partialInput, AggregateMode.PARTIAL, unionKeys, aggregate.calls(), PlanEstimate.UNKNOWN);
        partial = new AggregateNode(partialInput, AggregateMode.PARTIAL, unionKeys, aggregate.calls(),
                costModel.aggregate(partialInput.estimate(), unionKeys.length, calls,
                        costModel.groups(partialInput.estimate().rows(), unionKeys.length), partial.outputTypes()));
        double gatheredRows = Math.rint(partial.estimate().rows() * divisor);
        GatherNode gather = new GatherNode(partial, workers, false, CostModel.gather(partial.estimate(), gatheredRows, setupCost, tupleCost));
        // The gathered rows hold the union keys first: those are the columns each set keeps or nulls.
        GroupingSetsExpandNode partialExpand = new GroupingSetsExpandNode(gather, indexes(unionKeys.length), expand.sets(), PlanEstimate.UNKNOWN);
        partialExpand = new GroupingSetsExpandNode(gather, indexes(unionKeys.length), expand.sets(),
                costModel.projectSet(gather.estimate(), expand.sets().sets().size(), 0, partialExpand.outputTypes()));
        int[] finalKeys = partialExpand.aggregationKeys();
        AggregateNode finalize = new AggregateNode(partialExpand, AggregateMode.FINAL, finalKeys, aggregate.calls(),
                costModel.aggregate(partialExpand.estimate(), finalKeys.length, calls, aggregate.estimate().rows(), aggregate.outputTypes()),
                aggregate.groupingSets());
        return finalize.estimate().totalCost() < serial.estimate().totalCost() ? finalize : serial;
    }

    /** {@code Finalize Aggregate ← Gather ← Partial Aggregate ← partialInput}. */
    private AggregateNode partialAggregate(AggregateNode aggregate, PlanNode partialInput, int workers, double divisor) {
        int keys = aggregate.groupKeys().length;
        int calls = aggregate.calls().size();
        double partialGroups = costModel.groups(partialInput.estimate().rows(), keys);
        AggregateNode partial = new AggregateNode(partialInput, AggregateMode.PARTIAL, aggregate.groupKeys(), aggregate.calls(),
                PlanEstimate.UNKNOWN);
        partial = new AggregateNode(partialInput, AggregateMode.PARTIAL, aggregate.groupKeys(), aggregate.calls(),
                costModel.aggregate(partialInput.estimate(), keys, calls, partialGroups, partial.outputTypes()));
        double gatheredRows = Math.rint(partial.estimate().rows() * divisor);
        GatherNode gather = new GatherNode(partial, workers, false, CostModel.gather(partial.estimate(), gatheredRows, setupCost, tupleCost));
        return new AggregateNode(gather, AggregateMode.FINAL, indexes(keys), aggregate.calls(),
                costModel.aggregate(gather.estimate(), keys, calls, aggregate.estimate().rows(), aggregate.outputTypes()));
    }

    /**
     * {@code Sort ← Gather ← chain} (or the serial sort) against {@code Gather Merge ← Sort ← chain},
     * where each participant sorts its share (keeping only the first {@code limit} rows under a
     * top-N) and the leader merges the sorted streams.
     */
    private PlanNode sort(SortNode sort) {
        PlanNode sortAbove = rebuildAbove(sort, parallelize(sort.input()));
        PlanNode input = sort.input();
        int workers = workers(input);
        if (workers == 0) {
            return sortAbove;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode partialInput = partial(input, divisor);
        if (partialInput == null) {
            return sortAbove;
        }
        double participantRows = partialInput.estimate().rows();
        SortNode partialSort = new SortNode(partialInput, sort.keys(), sort.limit(), costModel.sort(partialInput.estimate(),
                sort.limit() >= 0 ? Math.min(sort.limit(), participantRows) : participantRows, sort.limit()));
        GatherMergeNode gatherMerge = new GatherMergeNode(partialSort, workers, sort.keys(),
                costModel.gatherMerge(partialSort.estimate(), sort.estimate().rows(), workers, setupCost, tupleCost));
        return gatherMerge.estimate().totalCost() < sortAbove.estimate().totalCost() ? gatherMerge : sortAbove;
    }

    private PlanNode gatherScanChain(PlanNode chain) {
        int workers = workers(chain);
        if (workers == 0) {
            return chain;
        }
        double divisor = ParallelDegree.parallelDivisor(workers, leaderParticipation);
        PlanNode parallel = parallelChain(chain, divisor);
        GatherNode gather = new GatherNode(parallel, workers, false,
                CostModel.gather(parallel.estimate(), chain.estimate().rows(), setupCost, tupleCost));
        return gather.estimate().totalCost() < chain.estimate().totalCost() ? gather : chain;
    }

    /** The chain with a parallel scan at the bottom and every estimate per participant. */
    /**
     * The estimate of {@code filter} over its partial {@code input}: the serial filter's selectivity
     * (which had the columns' ANALYZE statistics at hand) applied to the participant's share.
     */
    private PlanEstimate partialFilterEstimate(FilterNode filter, PlanNode input) {
        PlanEstimate computed = costModel.filter(input.estimate(), filter.condition(), input.outputTypes());
        double selectivity = filter.estimate().rows() / Math.max(1, filter.input().estimate().rows());
        double rows = Math.max(1, Math.rint(input.estimate().rows() * Math.min(1, selectivity)));
        return new PlanEstimate(computed.startupCost(), computed.totalCost(), rows, computed.width());
    }

    private PlanNode parallelChain(PlanNode node, double divisor) {
        return switch (node) {
            case SeqScanNode scan -> new SeqScanNode(scan.table(), scan.columns(), true,
                    costModel.scan(scan.table().storage().sizeBytes(), scan.table().storage().rowCount(), scan.outputTypes(), divisor));
            case PartitionAppendNode append -> {
                // Parallel Append: every input parallel-aware, each participant's estimate its share.
                java.util.List<PlanNode> inputs = append.inputs().stream().map(input -> parallelChain(input, divisor)).toList();
                double total = 0;
                double rows = 0;
                for (PlanNode input : inputs) {
                    total += input.estimate().totalCost();
                    rows += input.estimate().rows();
                }
                yield append.withInputs(inputs, true, new PlanEstimate(inputs.getFirst().estimate().startupCost(), total,
                        Math.max(1, rows), append.estimate().width()));
            }
            case FilterNode filter -> {
                PlanNode input = parallelChain(filter.input(), divisor);
                yield new FilterNode(input, filter.condition(), partialFilterEstimate(filter, input));
            }
            case ProjectNode project -> {
                PlanNode input = parallelChain(project.input(), divisor);
                yield new ProjectNode(input, project.expressions(),
                        costModel.project(input.estimate(), project.expressions(), project.outputTypes()));
            }
            case ProjectSetNode projectSet -> partialProjectSet(projectSet, parallelChain(projectSet.input(), divisor));
            default -> throw new IllegalStateException("not a scan chain: " + node);
        };
    }

    /** Workers for a plan part: those of the table scanned at the bottom of its first (probe) inputs, 0 when there is none. */
    private int workers(PlanNode chain) {
        PlanNode node = chain;
        while (!(node instanceof SeqScanNode) && !(node instanceof PartitionAppendNode)) {
            if (node.inputs().isEmpty() || node instanceof GatherNode || node instanceof GatherMergeNode) {
                return 0;
            }
            node = node.inputs().getFirst();
        }
        // A partitioned table's degree follows its total size, as PostgreSQL's Parallel Append takes the largest of its inputs' and log2(inputs).
        return switch (node) {
            case SeqScanNode scan -> scan.parallel() ? 0 : ParallelDegree.tableScanWorkers(scan.table(), settings);
            case PartitionAppendNode append -> ParallelDegree.tableScanWorkers(append.parent(), settings);
            default -> throw new IllegalStateException("no scan under " + chain);
        };
    }

    /** Filter/Project nodes over a serial scan, with only parallel-safe expressions. */
    private static boolean isScanChain(PlanNode node) {
        return switch (node) {
            case SeqScanNode scan -> !scan.parallel();
            case PartitionAppendNode append -> !append.parallel() && !append.inputs().isEmpty()
                    && append.inputs().stream().allMatch(ParallelPlanner::isScanChain);
            case FilterNode filter -> isParallelSafe(filter.condition()) && isScanChain(filter.input());
            case ProjectNode project -> project.expressions().stream().allMatch(ParallelPlanner::isParallelSafe)
                    && isScanChain(project.input());
            case ProjectSetNode projectSet -> isParallelSafe(projectSet) && isScanChain(projectSet.input());
            default -> false;
        };
    }

    private static boolean isParallelSafe(PlanNode node) {
        boolean safe = switch (node) {
            case FilterNode filter -> isParallelSafe(filter.condition());
            case ProjectNode project -> project.expressions().stream().allMatch(ParallelPlanner::isParallelSafe);
            case ProjectSetNode projectSet -> projectSet.functions().stream().allMatch(ParallelPlanner::isParallelSafe);
            case InsertNode insert -> false;
            case GatherNode gather -> false;
            case GatherMergeNode gatherMerge -> false;
            // PostgreSQL's Recursive Union and WorkTable Scan are parallel restricted: the work
            // table lives in the participant running the union, so it stays above any Gather.
            case dev.parallax.engine.plan.RecursiveUnionNode recursiveUnion -> false;
            case dev.parallax.engine.plan.WorkTableScanNode workTableScan -> false;
            default -> true;
        };
        return safe && node.inputs().stream().allMatch(ParallelPlanner::isParallelSafe);
    }

    private static boolean isParallelSafe(SetReturningFunction function) {
        return switch (function) {
            case SetReturningFunction.Series series -> isParallelSafe(series.start()) && isParallelSafe(series.stop())
                    && isParallelSafe(series.step());
            case SetReturningFunction.Unnest unnest -> isParallelSafe(unnest.array());
        };
    }

    /** A ProjectSet over a participant's share: the serial node's rows per input row, applied to the share. */
    private PlanNode partialProjectSet(ProjectSetNode projectSet, PlanNode input) {
        double rowsPerInputRow = projectSet.estimate().rows() / Math.max(1, projectSet.input().estimate().rows());
        return new ProjectSetNode(input, projectSet.functions(), costModel.projectSet(input.estimate(), rowsPerInputRow,
                projectSet.functions().size(), projectSet.outputTypes()));
    }

    /** PostgreSQL marks random() parallel restricted: its sequence lives in the leader. */
    static boolean isParallelSafe(Expr expression) {
        return switch (expression) {
            case Call call -> call.function() != Function.RANDOM && call.arguments().stream().allMatch(ParallelPlanner::isParallelSafe);
            case Cast cast -> isParallelSafe(cast.input());
            case Case caseExpression -> caseExpression.conditions().stream().allMatch(ParallelPlanner::isParallelSafe)
                    && caseExpression.results().stream().allMatch(ParallelPlanner::isParallelSafe)
                    && isParallelSafe(caseExpression.otherwise());
            case InList inList -> isParallelSafe(inList.value()) && inList.values().stream().allMatch(ParallelPlanner::isParallelSafe);
            default -> true;
        };
    }

    private static boolean containsGather(PlanNode node) {
        return node instanceof GatherNode || node instanceof GatherMergeNode || node.inputs().stream().anyMatch(ParallelPlanner::containsGather);
    }

    private static int[] indexes(int count) {
        int[] indexes = new int[count];
        for (int index = 0; index < count; index++) {
            indexes[index] = index;
        }
        return indexes;
    }

    /** The same node over a new input, its cost shifted by the input's change in cost. */
    private static PlanNode rebuildAbove(PlanNode node, PlanNode newInput) {
        PlanNode oldInput = node.inputs().getFirst();
        if (newInput == oldInput) {
            return node;
        }
        PlanEstimate old = node.estimate();
        double startupShift = newInput.estimate().startupCost() - oldInput.estimate().startupCost();
        double totalShift = newInput.estimate().totalCost() - oldInput.estimate().totalCost();
        PlanEstimate estimate = new PlanEstimate(old.startupCost() + startupShift, old.totalCost() + totalShift, old.rows(), old.width());
        return switch (node) {
            case LimitNode limit -> new LimitNode(newInput, limit.offset(), limit.limit(), estimate);
            case dev.parallax.engine.plan.WindowNode window -> window.withInput(newInput, estimate);
            case SortNode sort -> new SortNode(newInput, sort.keys(), sort.limit(), estimate);
            case ProjectNode project -> new ProjectNode(newInput, project.expressions(), estimate);
            case ProjectSetNode projectSet -> new ProjectSetNode(newInput, projectSet.functions(), estimate);
            case FilterNode filter -> new FilterNode(newInput, filter.condition(), estimate);
            case AggregateNode aggregate -> new AggregateNode(newInput, aggregate.mode(), aggregate.groupKeys(), aggregate.calls(), estimate,
                    aggregate.groupingSets());
            default -> throw new IllegalStateException("cannot rebuild " + node);
        };
    }

}
