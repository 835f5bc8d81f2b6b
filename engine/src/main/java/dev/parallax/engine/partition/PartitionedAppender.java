package dev.parallax.engine.partition;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.operator.dml.TableAppender;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;

/**
 * Appends rows to a partitioned table, all or nothing across its partitions. Each batch is routed
 * once ({@link PartitionRouter#route}) and scattered into one selection view per partition (rows
 * of inputs with batches larger than {@link Batch#DEFAULT_CAPACITY} are copied into one dense batch per partition). A row that no partition accepts fails the statement with 23514 before anything
 * is written. Then the partitions' appends are nested: partition k's rows are placed and its keys
 * indexed, and only inside that step (before its rows become visible) does partition k+1 go, so a
 * 23505 or out-of-memory anywhere abandons every partition's append and undoes every key. The
 * appends of several partitions are published together ({@link PagedTableStorage#publishTogether}):
 * a scan sees all of the statement's rows or none.
 */
public final class PartitionedAppender {
    private PartitionedAppender() {
    }

    /** Appends the live rows of {@code batches} (table column order) to the partitions of {@code table}. */
    public static void appendAll(Table table, List<Batch> batches) {
        PartitionRouter router = table.partitionRouter();
        List<List<Batch>> perPartition = scatter(router, batches);
        List<Table> targets = new ArrayList<>();
        List<List<Batch>> targetBatches = new ArrayList<>();
        for (int ordinal = 0; ordinal < perPartition.size(); ordinal++) {
            if (perPartition.get(ordinal) != null) {
                Table partition = router.partition(ordinal);
                if (!(partition.storage() instanceof PagedTableStorage)) {
                    throw new IllegalStateException("partition " + partition.name() + " has no paged storage");
                }
                targets.add(partition);
                targetBatches.add(perPartition.get(ordinal));
            }
        }
        if (targets.isEmpty()) {
            return;
        }
        if (targets.size() == 1) {
            appendFrom(0, targets, targetBatches);
            return;
        }
        List<PagedTableStorage> storages = new ArrayList<>(targets.size());
        for (Table target : targets) {
            storages.add((PagedTableStorage) target.storage());
        }
        // Two levels per partition: its lock, then its append.
        LargeStack.call(2 * targets.size(), () -> {
            PagedTableStorage.publishTogether(storages, () -> appendFrom(0, targets, targetBatches), null);
            return null;
        });
    }

    /**
     * Routes every batch and returns, per partition ordinal, the batches of its rows (null for a
     * partition without rows); 23514 for the first row no partition accepts. The rows of small
     * inputs stay where they are, behind a selection view per batch and partition. Per-row arrays
     * downstream (row ids) are sized by a batch's row count, so views of a large batch (INSERT ...
     * SELECT collects its input into chunks of 65,536 rows) would each cost its full size: then
     * each partition's rows of all the batches are copied into one dense batch of their own. One
     * batch, not one per chunk: the storage writes each batch's values into a block of the page's
     * heap, and a page filled from many chunks (some 64 rows each over 1,024 partitions) held as
     * many blocks, which put its rows' text where a point read cannot guess it
     * ({@code HeapPositionHints} in the storage package).
     */
    static List<List<Batch>> scatter(PartitionRouter router, List<Batch> batches) {
        int partitionCount = router.partitionCount();
        List<List<Batch>> perPartition = new ArrayList<>(partitionCount);
        for (int ordinal = 0; ordinal < partitionCount; ordinal++) {
            perPartition.add(null);
        }
        boolean copy = false;
        int[] counts = new int[partitionCount];
        for (Batch batch : batches) {
            int[] ordinals = new int[batch.rowCount()];
            router.route(batch, ordinals);
            int live = batch.selectedCount();
            java.util.Arrays.fill(counts, 0);
            for (int index = 0; index < live; index++) {
                int position = batch.position(index);
                int ordinal = ordinals[position];
                if (ordinal == PartitionRouter.NO_PARTITION) {
                    throw router.noPartition(batch, position);
                }
                counts[ordinal]++;
            }
            copy |= partitionCount > 1 && batch.rowCount() > Batch.DEFAULT_CAPACITY;
            int[][] selections = new int[partitionCount][];
            for (int ordinal = 0; ordinal < partitionCount; ordinal++) {
                if (counts[ordinal] > 0) {
                    selections[ordinal] = new int[counts[ordinal]];
                }
            }
            java.util.Arrays.fill(counts, 0);
            for (int index = 0; index < live; index++) {
                int position = batch.position(index);
                int ordinal = ordinals[position];
                selections[ordinal][counts[ordinal]++] = position;
            }
            for (int ordinal = 0; ordinal < partitionCount; ordinal++) {
                if (selections[ordinal] == null) {
                    continue;
                }
                Batch view = new Batch(batch.columns());
                view.setRowCount(batch.rowCount());
                view.setSelection(selections[ordinal], counts[ordinal]);
                if (perPartition.get(ordinal) == null) {
                    perPartition.set(ordinal, new ArrayList<>());
                }
                perPartition.get(ordinal).add(view);
            }
        }
        if (copy) {
            for (int ordinal = 0; ordinal < partitionCount; ordinal++) {
                List<Batch> views = perPartition.get(ordinal);
                if (views != null) {
                    // Copied once every batch is routed, so each partition's copy is allocated at its final size.
                    perPartition.set(ordinal, List.of(BatchCopier.concatenate(views)));
                }
            }
        }
        return perPartition;
    }

    /** Places the rows of partition {@code level} and, inside its guard, those of every later partition. */
    private static void appendFrom(int level, List<Table> targets, List<List<Batch>> targetBatches) {
        Table partition = targets.get(level);
        List<UniqueConstraint> constraints = partition.uniqueConstraints();
        PagedTableStorage storage = (PagedTableStorage) partition.storage();
        storage.appendAll(targetBatches.get(level), (placed, rowIds) -> {
            if (!constraints.isEmpty()) {
                TableAppender.insertKeys(constraints, placed, rowIds);
            }
            if (level + 1 == targets.size()) {
                // Every key is in: a scan now sees all the partitions' rows or none of them.
                if (targets.size() > 1) {
                    for (Table target : targets) {
                        ((PagedTableStorage) target.storage()).holdSnapshots();
                    }
                }
            } else {
                try {
                    appendFrom(level + 1, targets, targetBatches);
                } catch (RuntimeException | Error failure) {
                    removeKeys(constraints, placed, rowIds);
                    throw failure;
                }
            }
        });
    }

    private static void removeKeys(List<UniqueConstraint> constraints, List<Batch> batches, long[][] rowIds) {
        for (UniqueConstraint constraint : constraints) {
            int[] keyColumns = constraint.keyColumns();
            for (int batchIndex = 0; batchIndex < batches.size(); batchIndex++) {
                Batch batch = batches.get(batchIndex);
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int position = batch.position(index);
                    constraint.index().remove(batch, keyColumns, position, rowIds[batchIndex][position]);
                }
            }
        }
    }
}
