package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.expr.eval.StatementValues;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.LongKeyIndex;
import dev.parallax.engine.index.PartitionUniqueIndex;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.memory.CacheLinePrefetch;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.OnConflict;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A prepared single-row {@code INSERT ... VALUES (...) [ON CONFLICT ... DO UPDATE SET ... [WHERE
 * ...] | DO NOTHING]} without RETURNING, built once and executed many times: the row's expressions,
 * the DO UPDATE assignments and condition are compiled once ({@link ExpressionCompiler#compileReusable},
 * parameters and now() read per execution from {@link #values()}), and the proposed, conflicting and
 * updated rows live in batches made once. An execution evaluates the row, routes it to its
 * partition, looks its key up in the arbiter indexes, and applies the insert or the update through
 * {@link TableChanges} as {@link ModifyTableOperator} does for one row: optimistic attempts, then
 * one under the write lock, so concurrent upserts of one key lose no update and store no
 * duplicate. Unlike the operator it pins the table's row ids only when it holds one (an update).
 * No operator tree, execution context or result batch per execution; in steady state it allocates
 * nothing. Used by one thread at a time (a prepared statement's).
 */
public final class PointUpsert {
    private final Table table;
    /** The partitions when the table is partitioned, else null. */
    private final PartitionRouter router;
    /**
     * Per partition ordinal (when partitioned), side by side from {@code ordinal * targetStride}:
     * its storage, the partition, and the indexes of its constraints ({@code constraintCount}, by
     * constraint position), read from the catalog once: an execution then reaches its partition's
     * storage and index share straight from here, without the chain of cache misses through the
     * partition's catalog objects (table, constraint list, constraint) that each statement landing
     * on another of 1024 partitions paid (see {@link TableChanges#acquirePartition}). One array
     * with a power-of-two stride, so that a partition's references share one cache line: three
     * arrays (partitions, storages, indexes) were three lines per statement. Valid for the catalog
     * version the statement was prepared at, as the whole plan is.
     */
    private final Object[] partitionTargets;
    private final int targetStride;
    private static final int TARGET_STORAGE = 0;
    private static final int TARGET_PARTITION = 1;
    private static final int TARGET_INDEXES = 2;
    private final int constraintCount;
    /**
     * The columns evaluated before the rest of the row, in column order: the partition key columns
     * when each one's value is a parameter or literal ({@link #routeEarly}), and the key column of
     * {@link #probeIndex}; null for none. Evaluating a parameter or literal early has no side
     * effect; a failing cast is raised by the row's own evaluation, in column order. With them
     * {@link #execute} starts loading its partition's tail page lines (a prefetch of {@link
     * #appendLines}, or {@link PagedTableStorage#prefetchAppendLines}) and the index's first lines
     * before evaluating the other columns ({@code md5(random()::text)}: a few hundred ns of
     * arithmetic for those loads to complete behind).
     */
    private final int[] earlyKeyColumns;
    /** Whether the partition key columns are among {@link #earlyKeyColumns}. */
    private final boolean routeEarly;
    /**
     * The first arbiter's index (a partitioned table's one table index) when {@link
     * CacheLinePrefetch} is available and the index is keyed by one long-held column whose value
     * is a parameter or literal ({@link #probeColumn}), else null: {@link #prefetchTarget} then
     * prefetches the two lines its lookup reads first (segment header, first hash slot), and
     * they arrive while the rest of the row is evaluated. Toggled in one JVM, 10M rows, 40 pairs
     * of 100k upserts (loaded machine): 0.881 and 0.908 of the CPU per upsert on 1024 partitions,
     * 0.929 and 0.973 on one table.
     */
    private final LongKeyIndex probeIndex;
    private final int probeColumn;
    private final long[] probeLines = new long[2];
    /**
     * When partitioned and {@link CacheLinePrefetch} is available: per partition ordinal, from
     * {@code ordinal * APPEND_LINES}, the addresses of the lines its next one-row append writes,
     * as its storage named them after this statement's last append there (or at preparation):
     * {@link #prefetchTarget} prefetches them without touching the partition's storage,
     * whose cold line, page array and reader registration the fallback pays before its loads.
     * Stale when other statements appended meanwhile: then a prefetch loads a few slots early,
     * usually the same lines. 64 KiB for 1024 partitions: one line per partition, kept in the caches.
     */
    private final long[] appendLines;
    /** Otherwise, the fallback's room for the addresses ({@link PagedTableStorage#prefetchAppendLines}). */
    private final long[] appendLineScratch = new long[PagedTableStorage.APPEND_LINES];
    /** {@link #prefetchTarget}'s answer when it could not route the row (an early evaluation failed). */
    private static final int NOT_ROUTED = Integer.MIN_VALUE;
    private final StatementValues values = new StatementValues();
    /** Per table column: the proposed value, in the column's type. */
    private final VectorExpression[] rowValues;
    private final ConflictAction action;
    private final int[] arbiterPositions;
    /** Per constraint position whether it is an arbiter; null without ON CONFLICT (then a conflict is 23505). */
    private final boolean[] arbiterFlags;
    /** DO UPDATE: per column the new value over (existing ++ excluded), null where kept; or the excluded column copied. */
    private final VectorExpression[] conflictAssignments;
    private final int[] copiedColumns;
    private final Predicate conflictCondition;
    /** The table's CHECK constraints, or null when it has none: the upsert's hot path then pays one null test. */
    private final CheckedRows checks;
    private final int[] allColumns;
    /** Zero columns, one row: what the row's expressions are evaluated over. */
    private final Batch oneRow;
    private final Batch proposed;
    private final Batch existing;
    /** (existing ++ proposed) for the DO UPDATE expressions: the same vectors, viewed together. */
    private final Batch combined;
    private final Batch updated;
    private final int[] selected = new int[1];
    private final long[] hashScratch = new long[1];
    /** The change set every execution reuses (one execution at a time, as the whole statement). */
    private final TableChanges changeSet;

    private PointUpsert(ModifyTableNode node, List<Expr> row, ExecutionContext context) {
        this.table = node.table();
        this.router = table.isPartitioned() ? table.partitionRouter() : null;
        List<DataType> columnTypes = table.columnTypes();
        this.rowValues = new VectorExpression[columnTypes.size()];
        for (int column = 0; column < rowValues.length; column++) {
            rowValues[column] = ExpressionCompiler.compileReusable(row.get(column), columnTypes.get(column), context, values);
        }
        this.routeEarly = router != null && constantPerExecution(row, router.keyColumns());
        this.checks = CheckedRows.of(table, context);
        List<UniqueConstraint> constraints = router == null ? table.uniqueConstraints() : router.partition(0).uniqueConstraints();
        this.constraintCount = constraints.size();
        if (router == null) {
            this.partitionTargets = null;
            this.targetStride = 0;
            this.appendLines = null;
        } else {
            int count = router.partitionCount();
            this.targetStride = Integer.highestOneBit(TARGET_INDEXES + constraintCount - 1) << 1;
            this.partitionTargets = new Object[count * targetStride];
            for (int ordinal = 0; ordinal < count; ordinal++) {
                Table partition = router.partition(ordinal);
                int base = ordinal * targetStride;
                partitionTargets[base + TARGET_STORAGE] = partition.storage();
                partitionTargets[base + TARGET_PARTITION] = partition;
                List<UniqueConstraint> own = partition.uniqueConstraints();
                if (own.size() != constraintCount) {
                    throw new IllegalStateException("partition " + partition.name() + " has " + own.size()
                            + " unique constraints, its first sibling " + constraintCount);
                }
                for (int position = 0; position < constraintCount; position++) {
                    partitionTargets[base + TARGET_INDEXES + position] = own.get(position).index();
                }
            }
            this.appendLines = !routeEarly || !CacheLinePrefetch.available() ? null
                    : new long[count * PagedTableStorage.APPEND_LINES];
            for (int ordinal = 0; appendLines != null && ordinal < count; ordinal++) {
                ((PagedTableStorage) partitionTargets[ordinal * targetStride + TARGET_STORAGE])
                        .appendLineAddresses(appendLines, ordinal * PagedTableStorage.APPEND_LINES);
            }
        }
        OnConflict onConflict = node.onConflict();
        this.action = onConflict == null ? null : onConflict.action();
        List<UniqueConstraint> arbiters = onConflict == null ? List.of() : onConflict.arbiters();
        this.arbiterPositions = new int[arbiters.size()];
        this.arbiterFlags = onConflict == null ? null : new boolean[constraints.size()];
        for (int index = 0; index < arbiterPositions.length; index++) {
            arbiterPositions[index] = position(constraints, arbiters.get(index));
            arbiterFlags[arbiterPositions[index]] = true;
        }
        UniqueConstraint firstArbiter = arbiterPositions.length == 0 ? null : constraints.get(arbiterPositions[0]);
        this.probeIndex = probeIndex(firstArbiter, row, router != null);
        this.probeColumn = probeIndex == null ? -1 : firstArbiter.keyColumns()[0];
        IntStream early = IntStream.concat(routeEarly ? Arrays.stream(router.keyColumns()) : IntStream.empty(),
                probeIndex == null ? IntStream.empty() : IntStream.of(probeColumn));
        int[] earlyColumns = early.distinct().sorted().toArray();
        this.earlyKeyColumns = earlyColumns.length == 0 ? null : earlyColumns;
        this.conflictAssignments = new VectorExpression[columnTypes.size()];
        this.copiedColumns = new int[columnTypes.size()];
        Arrays.fill(copiedColumns, -1);
        if (action == ConflictAction.UPDATE) {
            for (int column = 0; column < columnTypes.size(); column++) {
                Expr assignment = onConflict.assignments().get(column);
                if (assignment instanceof ColumnRef reference && reference.type().equals(columnTypes.get(column))) {
                    copiedColumns[column] = reference.index();
                } else if (assignment != null) {
                    conflictAssignments[column] = ExpressionCompiler.compileReusable(assignment, columnTypes.get(column), context, values);
                }
            }
            this.conflictCondition = onConflict.condition() == null ? null
                    : ExpressionCompiler.compileReusablePredicate(onConflict.condition(), context, values);
        } else {
            this.conflictCondition = null;
        }
        this.allColumns = new int[columnTypes.size()];
        Arrays.setAll(allColumns, column -> column);
        this.oneRow = new Batch(new ColumnVector[0]);
        oneRow.setRowCount(1);
        this.proposed = Batch.create(columnTypes, 1);
        this.existing = Batch.create(columnTypes, 1);
        this.updated = Batch.create(columnTypes, 1);
        ColumnVector[] both = new ColumnVector[columnTypes.size() * 2];
        for (int column = 0; column < columnTypes.size(); column++) {
            both[column] = existing.column(column);
            both[columnTypes.size() + column] = proposed.column(column);
        }
        this.combined = new Batch(both);
        this.changeSet = TableChanges.forStatement(router == null ? table : router.partition(0));
    }

    /**
     * The reusable execution of {@code root} when it is a single-row INSERT of VALUES without
     * RETURNING (an {@link InsertNode}, or a {@link ModifyTableNode} with or without ON CONFLICT)
     * into a table with paged storage; null otherwise. {@code context} serves compilation only
     * (settings); nothing of it is read per execution.
     */
    public static PointUpsert of(PlanNode root, ExecutionContext context) {
        ModifyTableNode node = switch (root) {
            case ModifyTableNode modify when modify.operation() == ModifyOperation.INSERT && modify.returning().isEmpty() -> modify;
            case InsertNode insert -> new ModifyTableNode(ModifyOperation.INSERT, insert.table(), insert.input(), null, List.of(),
                    null, List.of(), insert.estimate());
            default -> null;
        };
        if (node == null) {
            return null;
        }
        Table table = node.table();
        // Foreign keys need the general path's checks (the referencing side, and a DO UPDATE that may change a referenced key).
        if (table.hasForeignKeyRelations() && (!table.foreignKeys().isEmpty() || node.onConflict() != null)) {
            return null;
        }
        if (table.isPartitioned() ? !hasPagedPartitions(table.partitionRouter()) : !(table.storage() instanceof PagedTableStorage)) {
            return null;
        }
        List<Expr> row = singleRow(node.input());
        if (row == null || row.size() != table.columnTypes().size()) {
            return null;
        }
        return new PointUpsert(node, row, context);
    }

    /**
     * The index {@link #probeIndex} names for {@code arbiter} (null for none) and the row, or null.
     * On a partitioned table {@code arbiter} is its first partition's: only a share of the one
     * table index serves every key (partitions with indexes of their own would have the first
     * partition's map prefetched for keys that go elsewhere).
     */
    private static LongKeyIndex probeIndex(UniqueConstraint arbiter, List<Expr> row, boolean partitioned) {
        if (arbiter == null || !CacheLinePrefetch.available() || arbiter.keyColumns().length != 1
                || !constantPerExecution(row, arbiter.keyColumns())) {
            return null;
        }
        UniqueIndex index = arbiter.index() instanceof PartitionUniqueIndex share ? share.tableIndex()
                : partitioned ? null : arbiter.index();
        return index instanceof LongKeyIndex longKeys ? longKeys : null;
    }

    /** Whether the router has partitions and all of them have paged storage. */
    private static boolean hasPagedPartitions(PartitionRouter router) {
        for (Table partition : router.partitions()) {
            if (!(partition.storage() instanceof PagedTableStorage)) {
                return false;
            }
        }
        return router.partitionCount() > 0;
    }

    /**
     * The expressions of the one row {@code input} produces: a one-row VALUES whose expressions have
     * its column types (the executor stores each value as the column's type), or a projection that
     * reads no column over a one-row VALUES (how {@code VALUES ($1, ...)} is planned); else null.
     */
    private static List<Expr> singleRow(PlanNode input) {
        if (input instanceof ProjectNode project && project.input() instanceof ValuesNode values && values.rows().size() == 1) {
            for (Expr expression : project.expressions()) {
                if (readsColumns(expression)) {
                    return null;
                }
            }
            return project.expressions();
        }
        if (!(input instanceof ValuesNode values) || values.rows().size() != 1) {
            return null;
        }
        List<Expr> row = values.rows().getFirst();
        for (int column = 0; column < row.size(); column++) {
            if (!row.get(column).type().equals(values.outputTypes().get(column))) {
                return null;
            }
        }
        return row;
    }

    private static boolean readsColumns(Expr expression) {
        return switch (expression) {
            case ColumnRef column -> true;
            case Literal literal -> false;
            case Parameter parameter -> false;
            case Cast cast -> readsColumns(cast.input());
            case Case caseExpression -> caseExpression.conditions().stream().anyMatch(PointUpsert::readsColumns)
                    || caseExpression.results().stream().anyMatch(PointUpsert::readsColumns) || readsColumns(caseExpression.otherwise());
            case InList inList -> readsColumns(inList.value()) || inList.values().stream().anyMatch(PointUpsert::readsColumns);
            case Call call -> call.arguments().stream().anyMatch(PointUpsert::readsColumns);
        };
    }

    /** Whether the expressions of {@code row} at {@code columns} are parameters or literals, possibly cast. */
    private static boolean constantPerExecution(List<Expr> row, int[] columns) {
        for (int column : columns) {
            Expr expression = row.get(column);
            while (expression instanceof Cast cast) {
                expression = cast.input();
            }
            if (!(expression instanceof Parameter || expression instanceof Literal)) {
                return false;
            }
        }
        return true;
    }

    /** Where the parameters and now() of the next execution are set ({@link StatementValues#bind}) before {@link #execute()}. */
    public StatementValues values() {
        return values;
    }

    /**
     * Runs the statement once with the values bound in {@link #values()}; returns the number of rows
     * inserted or updated (0 or 1). Errors as the statement through the executor: 23502, 23505
     * (no arbiter), 23514, 0A000 (an update moving the row to another partition), 22001....
     */
    public long execute() {
        proposed.reset();
        int routed = earlyKeyColumns == null ? NOT_ROUTED : prefetchTarget();
        for (int column = 0; column < rowValues.length; column++) {
            proposed.column(column).copyFrom(rowValues[column].evaluate(oneRow), 0, 0);
        }
        proposed.setRowCount(1);
        AssignedRows.checkNotNull(table, proposed);
        if (checks != null) {
            checks.check(proposed, table);
        }
        int target = 0;
        Table targetTable = table;
        TableChanges changes;
        if (router != null) {
            // The early route saw the same key values (parameters and literals are evaluated again to the same).
            target = routed != NOT_ROUTED ? routed : router.routeSingleRow(proposed, hashScratch);
            if (target == PartitionRouter.NO_PARTITION) {
                throw router.noPartition(proposed, 0);
            }
            int base = target * targetStride;
            targetTable = (Table) partitionTargets[base + TARGET_PARTITION];
            changes = TableChanges.acquirePartition(changeSet, table, targetTable, (PagedTableStorage) partitionTargets[base + TARGET_STORAGE],
                    partitionTargets, base + TARGET_INDEXES);
        } else {
            changes = TableChanges.acquire(changeSet, targetTable);
        }
        try {
            for (int attempt = 0; ; attempt++) {
                if (attempt >= ModifyTableOperator.MAXIMUM_ATTEMPTS) {
                    throw new IllegalStateException("upsert into " + table.name() + " failed " + attempt + " times under the write lock");
                }
                int outcome = attempt < ModifyTableOperator.OPTIMISTIC_ATTEMPTS ? optimisticAttempt(changes, targetTable, target)
                        : exclusiveAttempt(changes, targetTable, target);
                if (outcome >= 0) {
                    if (outcome > 0 && appendLines != null) {
                        // Its fields are in the cache now, as they will not be when a statement next lands here.
                        changes.storage().appendLineAddresses(appendLines, target * PagedTableStorage.APPEND_LINES);
                    }
                    return outcome;
                }
            }
        } finally {
            changes.release();
        }
    }

    /**
     * Evaluates {@link #earlyKeyColumns}, prefetches the arbiter index's first lines for the key,
     * routes the row and starts loading the partition's tail page lines; returns the partition's
     * ordinal ({@link PartitionRouter#NO_PARTITION} for none), which {@link #execute} uses once the
     * whole row is evaluated and checked, or {@link #NOT_ROUTED} when it did not route (not
     * partitioned, or the key not among the early columns) or evaluating the key failed: the row's
     * own evaluation then raises the error, after those of the columns before it, as without this step.
     */
    private int prefetchTarget() {
        try {
            for (int column : earlyKeyColumns) {
                proposed.column(column).copyFrom(rowValues[column].evaluate(oneRow), 0, 0);
            }
        } catch (ParallaxException failure) {
            return NOT_ROUTED;
        }
        proposed.setRowCount(1);
        // The index's two lines and the tail page's eight go out in one prefetch call (a downcall each was ~12 ns).
        long header = 0;
        long slot = 0;
        if (probeIndex != null && !proposed.column(probeColumn).isNull(0)) {
            probeIndex.probeLineAddresses(((LongVector) proposed.column(probeColumn)).get(0), probeLines, 0);
            header = probeLines[0];
            slot = probeLines[1];
        }
        int target = routeEarly ? router.routeSingleRow(proposed, hashScratch) : NOT_ROUTED;
        if (target >= 0 && appendLines != null) {
            int at = target * PagedTableStorage.APPEND_LINES;
            CacheLinePrefetch.prefetch(header, slot, appendLines[at], appendLines[at + 1], appendLines[at + 2], appendLines[at + 3],
                    appendLines[at + 4], appendLines[at + 5], appendLines[at + 6], appendLines[at + 7]);
            return target;
        }
        if (header != 0) {
            CacheLinePrefetch.prefetch(header, slot, header, slot, header, slot, header, slot, header, slot);
        }
        if (target >= 0) {
            ((PagedTableStorage) partitionTargets[target * targetStride + TARGET_STORAGE]).prefetchAppendLines(appendLineScratch);
        }
        return target;
    }

    /**
     * One attempt without the write lock: the rows changed (0 or 1), or -1 when another statement
     * or VACUUM got in between. An insert holds no row id (its key was absent; the new row's id
     * goes into the index under the write lock, which VACUUM's compaction takes too), so it pins
     * nothing: most upserts of new keys skip the table's row id lock, a cache miss and two atomic
     * updates per statement on a partition written at random. An update pins the row ids only
     * after its lookup and then checks that no compaction ran since ({@link
     * dev.parallax.engine.storage.TableStorage#relocations}), else it looks again.
     */
    private int optimisticAttempt(TableChanges changes, Table targetTable, int target) {
        PagedTableStorage storage = changes.storage();
        long relocations = storage.relocations();
        long abandoned = storage.abandonedSteps();
        long conflict = conflictingRow(changes);
        if (conflict == RowIds.ABSENT) {
            return insert(changes);
        }
        if (action == ConflictAction.NOTHING) {
            // The key exists once a step that went through published its row; else look again.
            return storage.isPublished(conflict) && storage.abandonedSteps() == abandoned && storage.relocations() == relocations
                    && (relocations & 1) == 0 ? 0 : -1;
        }
        long pin = targetTable.rowIdLock().pin();
        try {
            if ((relocations & 1) != 0 || storage.relocations() != relocations) {
                return -1; // VACUUM moved rows since the lookup: its row id may be another row's now
            }
            return update(changes, conflict, target, abandoned);
        } finally {
            targetTable.rowIdLock().unpin(pin);
        }
    }

    /** One attempt under the write lock (after the optimistic ones failed), with the row ids pinned throughout. */
    private int exclusiveAttempt(TableChanges changes, Table targetTable, int target) {
        // Pin first, then the write lock: VACUUM takes them in that order too.
        long pin = targetTable.rowIdLock().pin();
        try {
            return changes.storage().exclusively(() -> {
                // Under the write lock no step is under way: an entry found names a published row.
                long abandoned = changes.storage().abandonedSteps();
                long conflict = conflictingRow(changes);
                return conflict == RowIds.ABSENT ? insert(changes)
                        : action == ConflictAction.NOTHING ? 0 : update(changes, conflict, target, abandoned);
            });
        } finally {
            targetTable.rowIdLock().unpin(pin);
        }
    }

    /** The row id of the row whose key conflicts with the proposed row in an arbiter index, or {@link RowIds#ABSENT}. */
    private long conflictingRow(TableChanges changes) {
        long conflict = RowIds.ABSENT;
        for (int index = 0; index < arbiterPositions.length && conflict == RowIds.ABSENT; index++) {
            int position = arbiterPositions[index];
            conflict = changes.index(position).get(proposed, changes.keyColumns(position), 0, changes.pointScratch(position));
        }
        return conflict;
    }

    /** Inserts the proposed row: 1, or -1 when its key turned up in an arbiter index meanwhile. */
    private int insert(TableChanges changes) {
        changes.clear();
        changes.addNew(proposed, 0, -1);
        return changes.apply(arbiterFlags) ? 1 : -1;
    }

    /**
     * DO UPDATE of row {@code conflict} (pinned by the caller), found in an index when the storage
     * had abandoned {@code abandoned} steps: the rows changed (0 when the condition rejects it,
     * else 1), or -1 when another statement changed the row meanwhile.
     */
    private int update(TableChanges changes, long conflict, int target, long abandoned) {
        changes.clear();
        if (!changes.storage().readPublishedRow(conflict, allColumns, existing)
                || changes.storage().abandonedSteps() != abandoned) {
            // Placed by another writer that has not published it yet, or the row id was found while a
            // step was abandoned and may name another row by now (PagedTableStorage.abandonedSteps): look again.
            Thread.onSpinWait();
            return -1;
        }
        combined.setRowCount(1);
        if (conflictCondition != null && conflictCondition.select(combined, selected) == 0) {
            return 0;
        }
        updated.reset();
        for (int column = 0; column < conflictAssignments.length; column++) {
            ColumnVector value = copiedColumns[column] >= 0 ? combined.column(copiedColumns[column])
                    : conflictAssignments[column] != null ? conflictAssignments[column].evaluate(combined)
                    : existing.column(column);
            updated.column(column).copyFrom(value, 0, 0);
        }
        updated.setRowCount(1);
        AssignedRows.checkNotNull(table, updated);
        if (checks != null) {
            checks.check(updated, table);
        }
        if (router != null && router.routeSingleRow(updated, hashScratch) != target) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "invalid ON UPDATE specification")
                    .withDetail("The result tuple would appear in a different partition than the original tuple.");
        }
        int old = changes.addOld(conflict, existing, 0);
        changes.addNew(updated, 0, old);
        return changes.apply(arbiterFlags) ? 1 : -1;
    }

    /** The position of {@code constraint} among {@code constraints}, or of the one over the same columns (partitions). */
    private static int position(List<UniqueConstraint> constraints, UniqueConstraint constraint) {
        int position = constraints.indexOf(constraint);
        for (int index = 0; index < constraints.size() && position < 0; index++) {
            if (Arrays.equals(constraints.get(index).keyColumns(), constraint.keyColumns())) {
                position = index;
            }
        }
        if (position < 0) {
            throw new IllegalArgumentException("constraint " + constraint.name() + " is not on the table");
        }
        return position;
    }
}
