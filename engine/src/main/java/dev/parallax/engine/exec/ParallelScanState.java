package dev.parallax.engine.exec;

import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The global state of one Gather (or Gather Merge) execution: one {@link ScanCursor} per parallel scan below it,
 * opened once before any participant starts and shared by all of them, so every page is read by
 * exactly one participant. Immutable after construction, hence safe to share between threads.
 */
public final class ParallelScanState {
    private final Map<SeqScanNode, ScanCursor> cursors = new IdentityHashMap<>();

    /** Opens the cursors of every parallel scan under {@code gather}, with {@code chunkPages} pages per claim (0 = automatic). */
    public ParallelScanState(GatherNode gather, int chunkPages) {
        collect(gather.input(), chunkPages);
    }

    /** Opens the cursors of every parallel scan under {@code gatherMerge}, with {@code chunkPages} pages per claim (0 = automatic). */
    public ParallelScanState(GatherMergeNode gatherMerge, int chunkPages) {
        collect(gatherMerge.input(), chunkPages);
    }

    private void collect(PlanNode node, int chunkPages) {
        if (node instanceof SeqScanNode scan && scan.parallel()) {
            cursors.put(scan, scan.table().storage().openScan(chunkPages));
        }
        for (PlanNode input : node.inputs()) {
            collect(input, chunkPages);
        }
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
