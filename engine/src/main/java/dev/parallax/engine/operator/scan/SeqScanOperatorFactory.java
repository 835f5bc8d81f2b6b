package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.vector.Batch;

/** Instantiates a {@link SeqScanNode}: a serial scan opens its own cursor, a parallel one takes its Gather's. */
public final class SeqScanOperatorFactory {
    private SeqScanOperatorFactory() {
    }

    public static Operator create(SeqScanNode node, OperatorBuilder builder) {
        ScanCursor cursor = node.parallel()
                ? builder.parallelScanCursor(node)
                : node.table().storage().openScan(builder.scanChunkPages());
        return new SeqScanOperator(builder.context(), node.table().storage(), node.columns(), cursor,
                Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY), node.table().name());
    }
}
