package dev.parallax.engine.operator.append;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Runs the partitions' plans one after another, building each input's operator only when it is
 * reached and closing it as soon as it is exhausted, so a scan of 1024 partitions holds one
 * partition's operators at a time. Under a Parallel Append every participant runs every input
 * (their scans share a cursor per partition, so each page is read once) starting at its own
 * offset, so participants begin on different partitions instead of contending for the first.
 * A serial Append's partition scans are opened together before the first is read (by its factory),
 * so the statement sees every partition as it was at one moment.
 */
public final class PartitionAppendOperator implements Operator {
    private final List<PlanNode> inputs;
    private final OperatorBuilder builder;
    private final int start;
    private int done;
    private Operator current;
    /** Scans whose cursors the factory opened ahead through the builder; those never built are closed here. */
    private final List<SeqScanNode> preopenedScans;

    public PartitionAppendOperator(List<PlanNode> inputs, int start, OperatorBuilder builder, List<SeqScanNode> preopenedScans) {
        this.preopenedScans = preopenedScans;
        this.inputs = List.copyOf(inputs);
        this.start = inputs.isEmpty() ? 0 : Math.floorMod(start, inputs.size());
        this.builder = builder;
    }

    @Override
    public Batch next() {
        while (done < inputs.size()) {
            if (current == null) {
                current = builder.build(inputs.get((start + done) % inputs.size()));
            }
            Batch batch = current.next();
            if (batch != null) {
                return batch;
            }
            Operator finished = current;
            current = null;
            done++;
            finished.close();
        }
        return null;
    }

    @Override
    public void close() {
        done = inputs.size();
        try {
            if (current != null) {
                Operator open = current;
                current = null;
                open.close();
            }
        } finally {
            for (SeqScanNode scan : preopenedScans) {
                ScanCursor unused = builder.takePreopenedScan(scan);
                if (unused != null) {
                    unused.close();
                }
            }
        }
    }
}
