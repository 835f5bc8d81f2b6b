package dev.parallax.engine.operator.append;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.explain.InitialPruning;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ConsistentScans;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;

import java.util.ArrayList;
import java.util.List;

/**
 * Instantiates a {@link PartitionAppendNode}: first the execution-time pruning step, with this
 * execution's parameter values, so that removed partitions never get an operator; then the
 * Append over the remaining inputs.
 */
public final class PartitionAppendOperatorFactory {
    private PartitionAppendOperatorFactory() {
    }

    public static Operator create(PartitionAppendNode node, OperatorBuilder builder) {
        List<PlanNode> kept = node.inputs();
        if (node.runtimePruning() != null) {
            boolean[] removed = InitialPruning.removedInputs(node, builder.context());
            kept = new ArrayList<>();
            for (int input = 0; input < removed.length; input++) {
                if (!removed[input]) {
                    kept.add(node.inputs().get(input));
                }
            }
            NodeStatistics statistics = builder.statistics(node);
            if (statistics != null) {
                statistics.setPrunedInputs(removed);
            }
        }
        // The leader is participant -1: participants start at inputs 0, 1, 2, ...
        int start = node.parallel() ? builder.participant() + 1 : 0;
        // A Parallel Append's scans are opened together by their Gather; a serial one opens its
        // partitions' scans together now, so the statement sees all partitions at one moment.
        List<SeqScanNode> scans = new ArrayList<>();
        if (!node.parallel() && kept.size() > 1) {
            for (PlanNode input : kept) {
                collectSerialScans(input, scans);
            }
            // Scans given cursors already (an UPDATE's target partitions, read with the modifying
            // operator's own snapshots) keep them.
            scans.removeIf(builder::hasPreopenedScan);
        }
        if (scans.size() > 1) {
            List<TableStorage> storages = new ArrayList<>(scans.size());
            for (SeqScanNode scan : scans) {
                storages.add(scan.table().storage());
            }
            ScanCursor[] cursors = ConsistentScans.open(storages, builder.scanChunkPages());
            for (int index = 0; index < cursors.length; index++) {
                builder.preopenScan(scans.get(index), cursors[index]);
            }
        } else {
            scans.clear();
        }
        return new PartitionAppendOperator(kept, start, builder, scans);
    }

    /** The serial scans of {@code node}'s plan, not looking below a Gather (which opens its own). */
    private static void collectSerialScans(PlanNode node, List<SeqScanNode> scans) {
        if (node instanceof SeqScanNode scan) {
            if (!scan.parallel()) {
                scans.add(scan);
            }
            return;
        }
        if (node instanceof GatherNode || node instanceof GatherMergeNode) {
            return;
        }
        for (PlanNode input : node.inputs()) {
            collectSerialScans(input, scans);
        }
    }
}
