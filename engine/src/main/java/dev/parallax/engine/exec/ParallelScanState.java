package dev.parallax.engine.exec;

import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.operator.join.SharedJoinBuild;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ConsistentScans;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The global state of one Gather (or Gather Merge) execution: one {@link ScanCursor} per parallel scan below it
 * and one {@link SharedJoinBuild} per join below it,
 * opened once before any participant starts (the cursors together, showing their tables at one
 * moment: {@link ConsistentScans}) and shared by all of them, so every page is read by
 * exactly one participant. Immutable after construction, hence safe to share between threads.
 * The Gather owns it and {@link #close() closes} it once every participant stopped, which
 * releases the scans' snapshots.
 */
public final class ParallelScanState implements AutoCloseable {
    private final Map<SeqScanNode, ScanCursor> cursors = new IdentityHashMap<>();
    private final Map<PlanNode, SharedJoinBuild> joinBuilds = new IdentityHashMap<>();

    /** Opens the cursors of every parallel scan under {@code gather}, with {@code chunkPages} pages per claim (0 = automatic). */
    public ParallelScanState(GatherNode gather, int chunkPages) {
        this(gather.input(), chunkPages);
    }

    /** Opens the cursors of every parallel scan under {@code gatherMerge}, with {@code chunkPages} pages per claim (0 = automatic). */
    public ParallelScanState(GatherMergeNode gatherMerge, int chunkPages) {
        this(gatherMerge.input(), chunkPages);
    }

    private ParallelScanState(PlanNode input, int chunkPages) {
        try {
            List<SeqScanNode> scans = new ArrayList<>();
            collect(input, scans);
            List<TableStorage> storages = new ArrayList<>(scans.size());
            for (SeqScanNode scan : scans) {
                storages.add(scan.table().storage());
            }
            ScanCursor[] opened = ConsistentScans.open(storages, chunkPages);
            for (int index = 0; index < opened.length; index++) {
                cursors.put(scans.get(index), opened[index]);
            }
        } catch (RuntimeException | Error failure) {
            close();
            throw failure;
        }
    }

    /** Closes every scan cursor (releasing the snapshots); call once no participant reads any more. Idempotent. */
    @Override
    public void close() {
        for (ScanCursor cursor : cursors.values()) {
            cursor.close();
        }
    }

    /** Lists the parallel scans below {@code node} (their cursors open together) and makes the join states. */
    private void collect(PlanNode node, List<SeqScanNode> scans) {
        if (node instanceof SeqScanNode scan && scan.parallel()) {
            scans.add(scan);
        }
        if (node instanceof HashJoinNode || node instanceof NestedLoopJoinNode) {
            joinBuilds.put(node, new SharedJoinBuild());
        }
        for (PlanNode input : node.inputs()) {
            collect(input, scans);
        }
    }

    /** The build state shared by all participants for {@code join}, a join node below this Gather. */
    public SharedJoinBuild joinBuild(PlanNode join) {
        SharedJoinBuild build = joinBuilds.get(join);
        if (build == null) {
            throw new IllegalStateException("join " + join + " is not below this Gather");
        }
        return build;
    }

    /** The shared cursor of {@code scan}, which must be a parallel scan below this Gather. */
    public ScanCursor cursor(SeqScanNode scan) {
        ScanCursor cursor = cursors.get(scan);
        if (cursor == null) {
            throw new IllegalStateException("parallel scan of " + scan.table().name() + " is not below this Gather");
        }
        return cursor;
    }
}
