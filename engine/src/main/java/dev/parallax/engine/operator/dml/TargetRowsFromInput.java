package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.storage.ChunkedScanCursor;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The target rows of an UPDATE or DELETE whose input is a plan naming them
 * ({@link ModifyTableNode#rowIdColumn}): a join with the FROM / USING tables, a semi or anti join
 * for IN / EXISTS, a scalar subquery. Each attempt of the modifying operator runs the plan anew
 * ({@link #read}) and keeps each target row once, with the first input row naming it: PostgreSQL
 * changes a row joined to several rows once, with one of them.
 *
 * <p>The plan's scans of the target table (or of its partitions) read the snapshots the attempt
 * takes, unregistered, as the operator's own scan does: the attempt's row id pins keep VACUUM from
 * compacting their pages, and registering could wait on VACUUM FULL or ALTER TABLE while an
 * exclusive attempt holds the table's write lock. Scans of other tables register as any scan.
 *
 * <p>Used by the statement's thread only.
 */
final class TargetRowsFromInput {
    private static final long EMPTY = -1;

    private final ModifyTableNode node;
    private final PartitionRouter router;
    private final OperatorBuilder builder;
    private final int rowIdColumn;
    private final int partitionColumn;
    private final List<DataType> inputTypes;
    /** The plan's serial scans of the target table or its partitions, and the target ordinal of each. */
    private final List<SeqScanNode> targetScans = new ArrayList<>();
    private final List<Integer> targetScanOrdinals = new ArrayList<>();
    /** The targets the plan scans, ascending and distinct. */
    private final int[] scannedTargets;
    /** The target rows read by the last {@link #read}: the input rows, their targets and row ids. */
    private final Batch rows;
    private int[] targets = new int[16];
    private long[] rowIds = new long[16];
    /** Open addressing over (target, row id) of the rows kept, to keep each once; {@link #EMPTY} marks a free slot. */
    private long[] seenRowIds = new long[64];
    private int[] seenTargets = new int[64];
    private int seenCount;

    TargetRowsFromInput(ModifyTableNode node, PartitionRouter router, OperatorBuilder builder) {
        this.node = node;
        this.router = router;
        this.builder = builder;
        this.rowIdColumn = node.rowIdColumn();
        this.partitionColumn = node.rowIdColumn() + 1;
        this.inputTypes = node.input().outputTypes();
        this.rows = BatchCopier.emptyLike(inputTypes, 16);
        collectTargetScans(node.input());
        this.scannedTargets = targetScanOrdinals.stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
        Arrays.fill(seenRowIds, EMPTY);
    }

    private void collectTargetScans(PlanNode plan) {
        if (plan instanceof SeqScanNode scan) {
            int ordinal = targetOrdinal(scan.table());
            if (ordinal >= 0) {
                if (scan.parallel()) {
                    throw new IllegalStateException("a parallel scan of the target of " + node.operation() + " on " + node.table().name());
                }
                targetScans.add(scan);
                targetScanOrdinals.add(ordinal);
            }
            return;
        }
        for (PlanNode input : plan.inputs()) {
            collectTargetScans(input);
        }
    }

    /** The target ordinal of {@code scanned} when it is the target table or one of its partitions, else -1. */
    private int targetOrdinal(Table scanned) {
        if (router == null) {
            return scanned == node.table() ? 0 : -1;
        }
        return router.partitions().indexOf(scanned);
    }

    /** The targets the plan scans, ascending: those the operator pins, and locks in an exclusive attempt. */
    int[] scannedTargets() {
        return scannedTargets;
    }

    /**
     * Runs the plan with one snapshot per target of {@code sources} (all taken at one moment, as the
     * operator's own scan takes them) and returns the target rows, each once, in the plan's order;
     * null when a target changed while the snapshots were taken (the attempt starts over).
     */
    Batch read(int[] sources, ExecutionContext context) {
        ScanSnapshot[] snapshots = new ScanSnapshot[sources.length];
        for (int source = 0; source < sources.length; source++) {
            snapshots[source] = storageOf(sources[source]).snapshot();
        }
        if (sources.length > 1) {
            for (int source = 0; source < sources.length; source++) {
                if (storageOf(sources[source]).changeSequence() != snapshots[source].sequence()) {
                    return null;
                }
            }
        }
        for (int scan = 0; scan < targetScans.size(); scan++) {
            int source = Arrays.binarySearch(sources, targetScanOrdinals.get(scan));
            ScanSnapshot snapshot = snapshots[source];
            builder.preopenScan(targetScans.get(scan), new ChunkedScanCursor(snapshot.pageCount(), builder.scanChunkPages(), snapshot));
        }
        clearSeen();
        rows.reset();
        int count = 0;
        int[] firstSeen = new int[Batch.DEFAULT_CAPACITY];
        Operator input = builder.build(node.input());
        try {
            Batch batch;
            while ((batch = input.next()) != null) {
                context.checkCancelled();
                int live = batch.selectedCount();
                if (firstSeen.length < live) {
                    firstSeen = new int[live];
                }
                LongVector batchRowIds = (LongVector) batch.column(rowIdColumn);
                LongVector batchTargets = (LongVector) batch.column(partitionColumn);
                int kept = 0;
                for (int index = 0; index < live; index++) {
                    int position = batch.position(index);
                    int target = (int) batchTargets.get(position);
                    long rowId = batchRowIds.get(position);
                    if (addSeen(target, rowId)) {
                        if (count + kept == rowIds.length) {
                            rowIds = Arrays.copyOf(rowIds, rowIds.length * 2);
                            targets = Arrays.copyOf(targets, targets.length * 2);
                        }
                        rowIds[count + kept] = rowId;
                        targets[count + kept] = target;
                        firstSeen[kept++] = position;
                    }
                }
                if (kept > 0) {
                    Batch view = new Batch(batch.columns());
                    view.setRowCount(batch.rowCount());
                    view.setSelection(firstSeen, kept);
                    BatchCopier.appendLiveRows(view, rows, count);
                    count += kept;
                }
            }
        } finally {
            input.close();
            // Cursors of scans the plan did not build (partitions pruned when it started) are dropped:
            // unregistered, they hold nothing.
            for (SeqScanNode scan : targetScans) {
                builder.takePreopenedScan(scan);
            }
        }
        rows.setRowCount(count);
        return rows;
    }

    /** The target of each row of the last {@link #read}. */
    int[] targets() {
        return targets;
    }

    /** The row id of each row of the last {@link #read}. */
    long[] rowIds() {
        return rowIds;
    }

    /**
     * 23502 for the first new version with a NULL in a NOT NULL column, naming its partition (or
     * the table), as PostgreSQL names the relation the row is in.
     */
    void checkNotNull(Batch updated, IntFunction<Table> tableOf) {
        int count = updated.rowCount();
        if (router == null) {
            AssignedRows.checkNotNull(tableOf.apply(0), updated);
            return;
        }
        int[] positions = new int[1];
        Batch one = new Batch(updated.columns());
        for (int row = 0; row < count; row++) {
            positions[0] = row;
            one.setRowCount(count);
            one.setSelection(positions, 1);
            AssignedRows.checkNotNull(tableOf.apply(targets[row]), one);
        }
    }

    /**
     * The rows RETURNING is evaluated over: per returned row ({@code order}: target << 32 | row in
     * its change set, from input row {@code inputRows}), the input row with its target columns
     * replaced by the changed version ({@code changedRows} of the target: new versions for an
     * UPDATE, the deleted ones for a DELETE).
     */
    Batch returnedRows(int count, long[] order, int[] inputRows, IntFunction<Batch> changedRows) {
        Batch returned = BatchCopier.emptyLike(inputTypes, Math.max(1, count));
        int tableColumns = node.table().columns().size();
        for (int index = 0; index < count; index++) {
            Batch changed = changedRows.apply((int) (order[index] >>> 32));
            int changedRow = (int) order[index];
            for (int column = 0; column < tableColumns; column++) {
                returned.column(column).copyFrom(changed.column(column), changedRow, index);
            }
            for (int column = tableColumns; column < rows.columnCount(); column++) {
                returned.column(column).copyFrom(rows.column(column), inputRows[index], index);
            }
        }
        returned.setRowCount(count);
        return returned;
    }

    private dev.parallax.engine.storage.PagedTableStorage storageOf(int target) {
        Table table = router == null ? node.table() : router.partition(target);
        TableStorage storage = table.storage();
        if (!(storage instanceof dev.parallax.engine.storage.PagedTableStorage paged)) {
            throw new IllegalStateException("table " + table.name() + " has no paged storage");
        }
        return paged;
    }

    private void clearSeen() {
        if (seenCount > 0) {
            Arrays.fill(seenRowIds, EMPTY);
            seenCount = 0;
        }
    }

    /** Adds (target, row id) to the rows kept; false when it is there already. */
    private boolean addSeen(int target, long rowId) {
        if (seenCount * 2 >= seenRowIds.length) {
            growSeen();
        }
        int mask = seenRowIds.length - 1;
        int slot = hash(target, rowId) & mask;
        while (seenRowIds[slot] != EMPTY) {
            if (seenRowIds[slot] == rowId && seenTargets[slot] == target) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        seenRowIds[slot] = rowId;
        seenTargets[slot] = target;
        seenCount++;
        return true;
    }

    private void growSeen() {
        long[] oldRowIds = seenRowIds;
        int[] oldTargets = seenTargets;
        seenRowIds = new long[oldRowIds.length * 2];
        seenTargets = new int[oldRowIds.length * 2];
        Arrays.fill(seenRowIds, EMPTY);
        int mask = seenRowIds.length - 1;
        for (int index = 0; index < oldRowIds.length; index++) {
            if (oldRowIds[index] != EMPTY) {
                int slot = hash(oldTargets[index], oldRowIds[index]) & mask;
                while (seenRowIds[slot] != EMPTY) {
                    slot = (slot + 1) & mask;
                }
                seenRowIds[slot] = oldRowIds[index];
                seenTargets[slot] = oldTargets[index];
            }
        }
    }

    private static int hash(int target, long rowId) {
        long mixed = (rowId ^ ((long) target << 48)) * 0x9E3779B97F4A7C15L;
        return (int) (mixed >>> 32);
    }
}
