package dev.parallax.engine.operator.scan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;

/**
 * Instantiates a {@link SeqScanNode}: a parallel scan below a Gather takes the Gather's shared
 * cursor; any other scan opens a cursor of its own (its snapshot registered from now on) and
 * closes it with the operator.
 */
public final class SeqScanOperatorFactory {
    private SeqScanOperatorFactory() {
    }

    /** The ordinal of {@code table} among its parent's partitions, or 0 when it is no partition. */
    private static int partitionOrdinal(Table table) {
        Table parent = table.parent();
        return parent == null ? 0 : parent.partitionRouter().partitions().indexOf(table);
    }

    public static Operator create(SeqScanNode node, OperatorBuilder builder) {
        // A system view may show the session itself (pg_prepared_statements): the session says what to read.
        TableStorage storage = node.table().isSystemView()
                ? builder.context().sessionViews().storage(node.table()) : node.table().storage();
        ScanCursor shared = node.parallel() ? builder.sharedScanCursor(node) : null;
        ScanCursor cursor = shared != null ? shared : builder.takePreopenedScan(node);
        if (cursor == null) {
            cursor = storage.openScan(builder.scanChunkPages());
        }
        try {
            return new SeqScanOperator(builder.context(), storage, node.columns(), cursor,
                    Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY), node.table().name(), shared == null,
                    node.readsPseudoColumns() ? partitionOrdinal(node.table()) : 0);
        } catch (RuntimeException | Error failure) {
            if (shared == null) {
                cursor.close();
            }
            throw failure;
        }
    }
}
