package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.partition.LargeStack;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.KeyLookup;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.OnConflict;
import dev.parallax.engine.plan.PartitionAppendNode;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link ModifyTableNode}: INSERT [ON CONFLICT], UPDATE and DELETE, all or nothing, with
 * RETURNING, on a plain table or on the partitions of a hash-partitioned one.
 *
 * <p>Each attempt first works out the statement's changes without any lock: it finds the target
 * rows (a scan with one snapshot, or a point lookup through a unique index) or, for an upsert, looks
 * each proposed key up in the arbiter index and reads the rows it conflicts with, and computes the
 * new versions ({@link TableChanges}, one per table or partition touched). It then applies them in
 * one short step under the write locks of those tables, which fails when another statement changed
 * one of those rows or inserted one of those keys in between; the attempt is then repeated on the
 * new state, so no update is lost and no key is stored twice (PostgreSQL re-checks the newest
 * version of a row in READ COMMITTED the same way). The per-key critical section is thus the index
 * check inside that step: lookups, reads and expression evaluation stay outside it. After
 * {@value #OPTIMISTIC_ATTEMPTS} failed attempts (heavy contention on the same keys) an attempt runs
 * wholly under the write locks, so every statement finishes.
 *
 * <p>On a partitioned table the statement touches only the partitions it can: an INSERT routes each
 * proposed row ({@link PartitionRouter}, 23514 when no partition accepts it), a point lookup hashes
 * its key to one partition, and a scan visits the partitions the planner (or, with parameters, the
 * start of execution) kept. Unique keys include the partition key, so a key's conflicts are always
 * in its own partition; every partition has the table's constraints in the same order, so
 * constraints are named by position. An UPDATE that changes the partition key moves the row: its
 * old version dies in its partition and the new one is inserted into the partition it now belongs
 * to (PostgreSQL 11+); ON CONFLICT DO UPDATE may not move a row (0A000, as in PostgreSQL). The
 * partitions' steps are nested in partition order ({@link TableChanges#applyAll}), so the
 * statement stays all or nothing across partitions.
 *
 * <p>The output is the RETURNING rows when the node has RETURNING, otherwise one BIGINT row with
 * the number of rows inserted, updated or deleted.
 */
public final class ModifyTableOperator implements Operator {
    static final int OPTIMISTIC_ATTEMPTS = 3;
    /** Attempts under the write lock can only fail on a bug; give up rather than loop forever. */
    static final int MAXIMUM_ATTEMPTS = OPTIMISTIC_ATTEMPTS + 8;

    /**
     * Abandons an attempt that read a row id whose row is not published yet, or found through an
     * index while a write step of the partition was abandoned, or whose partitions changed while
     * it took their snapshots; carries no stack trace.
     */
    static final RuntimeException UNPUBLISHED = new RuntimeException("row not published yet", null, false, false) {
    };
    private static final int[] PLAIN_TARGETS = {0};

    private final ModifyTableNode node;
    private final Table table;
    private final ExecutionContext context;
    /** The partitions when the table is partitioned (targets are partition ordinals), else null (one target, 0). */
    private final PartitionRouter router;
    /** The number of targets: the partitions, or 1. */
    private final int targetCount;
    /**
     * The first target touched and its change set; most statements (point changes, single-row
     * upserts) touch one, and then no per-target array is made (1024 partitions would cost an 8 KB
     * array per execution).
     */
    private int firstTarget = -1;
    private TableChanges firstChanges;
    /** Per target, its change set once touched; made when a second target is touched. */
    private TableChanges[] changesByTarget;
    /** The change sets in use, to clear and release, and their targets, in the order first touched. */
    private final List<TableChanges> acquired = new ArrayList<>(2);
    private int[] acquiredTargets = new int[2];
    private final int[] allColumns;
    private final List<DataType> columnTypes;
    /** INSERT: the proposed rows' source and their conversion to the column types. */
    private final Operator input;
    private final AssignedRows assignment;
    /** UPDATE/DELETE: the WHERE condition, or null. */
    private final Predicate condition;
    /** UPDATE: per column the new value (over the old row), null where it keeps its value. */
    private final VectorExpression[] assignments;
    /** UPDATE of a partitioned table that assigns a partition key column: rows may move. */
    private final boolean movesRows;
    /** ON CONFLICT DO UPDATE: SET per column (over old ++ excluded), null where kept; the WHERE or null. */
    private final VectorExpression[] conflictAssignments;
    private final Predicate conflictCondition;
    /** UPDATE and ON CONFLICT DO UPDATE: the table's CHECK constraints on the new row versions, or null when it has none. */
    private final CheckedRows updateChecks;
    /** ON CONFLICT: per arbiter its position among the table's constraints, and per position whether it is one. */
    private final int[] arbiterPositions;
    private final boolean[] arbiterFlags;
    /** UPDATE/DELETE by point lookup: the position of the lookup's constraint, else -1. */
    private final int lookupPosition;
    private final VectorExpression[] returning;
    /** Scratch: one row read through a row id. */
    private final Batch rowBuffer;
    /** Scratch batches of the table's column types: proposed rows, conflicting rows and their excluded rows. */
    private Batch proposedRows;
    private Batch conflictRows;
    private Batch excludedRows;
    /** Partitioned tables with RETURNING: the rows to return in processing order, as (target << 32 | row in its set). */
    private long[] outputOrder = new long[16];
    private int outputCount;
    private boolean done;
    private Batch output;
    /** UPDATE/DELETE whose target rows come out of the input plan ({@link ModifyTableNode#rowIdColumn}), else null. */
    private final TargetRowsFromInput targetRows;
    /** With {@link #targetRows} and RETURNING: per returned row its input row among the target rows read. */
    private int[] outputInputRows = new int[16];
    /** The foreign key rules of a statement on a table that takes part in one, else null (most tables: nothing checked, no lock). */
    private final ForeignKeyEnforcement foreignKeys;

    public ModifyTableOperator(ModifyTableNode node, Operator input, ExecutionContext context) {
        this(node, input, context, null);
    }

    /**
     * {@code builder} builds the input plan of an UPDATE or DELETE that reads its target rows from
     * it (once per attempt), null otherwise.
     */
    public ModifyTableOperator(ModifyTableNode node, Operator input, ExecutionContext context, OperatorBuilder builder) {
        this.node = node;
        this.table = node.table();
        this.context = context;
        this.columnTypes = table.columnTypes();
        this.router = !table.isPartitioned() ? null
                : node.input() instanceof PartitionAppendNode append && !node.readsTargetRowsFromInput() ? append.router()
                : table.partitionRouter();
        this.targetRows = node.readsTargetRowsFromInput() ? new TargetRowsFromInput(node, router, builder) : null;
        this.targetCount = router == null ? 1 : router.partitionCount();
        if (router == null) {
            // A plain table's change set is taken up front: its scratch batches serve the statement.
            TableChanges changes = changes(0);
            this.proposedRows = changes.proposedRows;
            this.conflictRows = changes.conflictRows;
            this.excludedRows = changes.excludedRows;
        }
        this.allColumns = new int[columnTypes.size()];
        for (int column = 0; column < allColumns.length; column++) {
            allColumns[column] = column;
        }
        this.rowBuffer = Batch.create(columnTypes, 1);
        this.input = input;
        this.assignment = node.operation() == ModifyOperation.INSERT
                ? new AssignedRows(node.input().outputTypes(), table, context) : null;
        Expr where = node.operation() == ModifyOperation.INSERT ? null : node.condition();
        this.condition = where == null ? null : ExpressionCompiler.compilePredicate(where, context);
        this.assignments = compileAssignments(node.operation() == ModifyOperation.UPDATE ? node.assignments() : List.of());
        boolean moves = false;
        if (router != null && node.operation() == ModifyOperation.UPDATE) {
            for (int column : table.partitionKey().columns()) {
                moves |= node.assignments().get(column) != null;
            }
        }
        this.movesRows = moves;
        OnConflict onConflict = node.onConflict();
        boolean updates = node.operation() == ModifyOperation.UPDATE || onConflict != null && onConflict.action() == ConflictAction.UPDATE;
        this.updateChecks = updates ? CheckedRows.of(table, context) : null;
        if (onConflict != null && onConflict.action() == ConflictAction.UPDATE) {
            this.conflictAssignments = compileAssignments(onConflict.assignments());
            this.conflictCondition = onConflict.condition() == null ? null
                    : ExpressionCompiler.compilePredicate(onConflict.condition(), context);
        } else {
            this.conflictAssignments = null;
            this.conflictCondition = null;
        }
        List<UniqueConstraint> constraints = router == null ? table.uniqueConstraints()
                : router.partitionCount() == 0 ? List.of() : router.partition(0).uniqueConstraints();
        List<UniqueConstraint> arbiters = onConflict == null ? List.of() : onConflict.arbiters();
        this.arbiterPositions = new int[arbiters.size()];
        this.arbiterFlags = new boolean[constraints.size()];
        for (int index = 0; index < arbiterPositions.length; index++) {
            arbiterPositions[index] = position(constraints, arbiters.get(index));
            arbiterFlags[arbiterPositions[index]] = true;
        }
        this.lookupPosition = node.lookup() == null ? -1 : position(constraints, node.lookup().constraint());
        this.foreignKeys = ForeignKeyEnforcement.of(node, context);
        this.returning = new VectorExpression[node.returning().size()];
        for (int index = 0; index < returning.length; index++) {
            returning[index] = ExpressionCompiler.compile(node.returning().get(index), context);
        }
    }

    /**
     * The position of {@code constraint} among {@code constraints}: itself, or on a partitioned
     * table the constraint over the same key columns (the planner names a parent's constraints by
     * those of a partition; constraints over the same columns conflict on exactly the same rows).
     */
    private int position(List<UniqueConstraint> constraints, UniqueConstraint constraint) {
        int position = constraints.indexOf(constraint);
        if (position < 0 && router != null) {
            for (int index = 0; index < constraints.size() && position < 0; index++) {
                if (Arrays.equals(constraints.get(index).keyColumns(), constraint.keyColumns())) {
                    position = index;
                }
            }
        }
        if (position < 0) {
            throw new IllegalArgumentException("constraint " + constraint.name() + " is not on table " + table.name());
        }
        return position;
    }

    private VectorExpression[] compileAssignments(List<Expr> expressions) {
        if (expressions.isEmpty()) {
            return null;
        }
        VectorExpression[] compiled = new VectorExpression[expressions.size()];
        for (int column = 0; column < compiled.length; column++) {
            Expr expression = expressions.get(column);
            if (expression instanceof ColumnRef reference && reference.type().equals(columnTypes.get(column))) {
                // SET c = excluded.c (the upsert's usual form): the input column itself, nothing to compile or evaluate.
                compiled[column] = new ColumnCopy(reference.index());
            } else if (expression != null) {
                compiled[column] = ExpressionCompiler.compileAssignment(expression, columnTypes.get(column), context);
            }
        }
        return compiled;
    }

    // ---- targets ----

    private Table tableOf(int target) {
        return router == null ? table : router.partition(target);
    }

    private PagedTableStorage storageOf(int target) {
        return changes(target).storage();
    }

    /** The change set of {@code target}, acquired when the statement first touches it. */
    private TableChanges changes(int target) {
        if (target == firstTarget) {
            return firstChanges;
        }
        if (firstTarget < 0) {
            firstTarget = target;
            firstChanges = acquire(target);
            return firstChanges;
        }
        if (changesByTarget == null) {
            changesByTarget = new TableChanges[targetCount];
            changesByTarget[firstTarget] = firstChanges;
        }
        TableChanges changes = changesByTarget[target];
        if (changes == null) {
            changes = acquire(target);
            changesByTarget[target] = changes;
        }
        return changes;
    }

    /** The change set of {@code target} when the statement touched it, else null. */
    private TableChanges touchedChanges(int target) {
        if (target == firstTarget) {
            return firstChanges;
        }
        return changesByTarget == null ? null : changesByTarget[target];
    }

    private TableChanges acquire(int target) {
        TableChanges changes = TableChanges.acquire(tableOf(target));
        if (acquired.size() == acquiredTargets.length) {
            acquiredTargets = Arrays.copyOf(acquiredTargets, acquiredTargets.length * 2);
        }
        acquiredTargets[acquired.size()] = target;
        acquired.add(changes);
        return changes;
    }

    /** The targets whose rows the statement reads (ascending): those it pins, and locks in an exclusive attempt. */
    private int[] sourceTargets(int[] proposedTargets, Batch keyValues) {
        if (router == null) {
            return PLAIN_TARGETS;
        }
        if (targetRows != null) {
            return targetRows.scannedTargets();
        }
        if (proposedTargets != null) {
            return proposedTargets.length == 1 ? proposedTargets : Arrays.stream(proposedTargets).distinct().sorted().toArray();
        }
        if (keyValues != null) {
            int target = lookupTarget(keyValues);
            return target == PartitionRouter.NO_PARTITION ? new int[0] : new int[] {target};
        }
        PartitionAppendNode append = (PartitionAppendNode) node.input();
        int[] ordinals = append.inputOrdinals();
        if (append.runtimePruning() == null) {
            return ordinals;
        }
        boolean[] survivors = append.runtimePruning().survivors(router, context);
        return Arrays.stream(ordinals).filter(ordinal -> survivors[ordinal]).toArray();
    }

    /** The partition of a point lookup's key (the unique key includes the partition key), or NO_PARTITION for a NULL key. */
    private int lookupTarget(Batch keyValues) {
        int[] uniqueKey = node.lookup().constraint().keyColumns();
        int[] partitionKey = router.keyColumns();
        int[] positions = new int[partitionKey.length];
        for (int key = 0; key < partitionKey.length; key++) {
            positions[key] = -1;
            for (int position = 0; position < uniqueKey.length; position++) {
                if (uniqueKey[position] == partitionKey[key]) {
                    positions[key] = position;
                }
            }
            if (positions[key] < 0) {
                throw new IllegalStateException("unique key of " + table.name() + " lacks a partition key column");
            }
            if (keyValues.column(positions[key]).isNull(0)) {
                return PartitionRouter.NO_PARTITION;
            }
        }
        int[] ordinals = new int[1];
        router.route(keyValues, positions, ordinals);
        return ordinals[0];
    }

    // ---- execution ----

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        Batch proposed = node.operation() == ModifyOperation.INSERT ? collectProposedRows() : null;
        int[] proposedTargets = proposed == null || router == null ? null : route(proposed);
        Batch keyValues = node.lookup() == null ? null : lookupKey(node.lookup());
        int[] sources = sourceTargets(proposedTargets, keyValues);
        // A moving UPDATE may write any partition: its exclusive attempt locks them all, in partition order.
        int[] exclusiveTargets = movesRows ? allTargets() : sources;
        // TableChanges.applyAll nests two levels per partition changed: its lock, then its step.
        int nesting = 2 * (movesRows ? targetCount : sources.length);
        if (foreignKeys != null) {
            foreignKeys.lock();
            try {
                applyWithRetries(proposed, proposedTargets, keyValues, sources, exclusiveTargets, nesting);
            } finally {
                foreignKeys.unlock();
            }
        } else {
            applyWithRetries(proposed, proposedTargets, keyValues, sources, exclusiveTargets, nesting);
        }
        return returning.length == 0 ? countBatch() : returningBatch();
    }

    /** The attempts: optimistic ones, then under the write locks, until one applies. */
    private void applyWithRetries(Batch proposed, int[] proposedTargets, Batch keyValues, int[] sources, int[] exclusiveTargets,
                                  int nesting) {
        int attempt = 0;
        while (true) {
            context.checkCancelled();
            if (attempt >= MAXIMUM_ATTEMPTS) {
                throw new IllegalStateException("modification of " + table.name() + " failed " + attempt + " times under the write lock");
            }
            boolean exclusive = attempt >= OPTIMISTIC_ATTEMPTS;
            boolean applied;
            // The row ids an attempt reads stay valid until it applies: VACUUM compacts no page meanwhile.
            // Pins first (in partition order), then the storage locks: VACUUM takes them in that order too.
            long[] pins = new long[sources.length];
            for (int index = 0; index < sources.length; index++) {
                pins[index] = tableOf(sources[index]).rowIdLock().pin();
            }
            try {
                BooleanSupplier step = () -> attempt(proposed, proposedTargets, keyValues, sources);
                applied = LargeStack.call(exclusive ? nesting + exclusiveTargets.length : nesting,
                        () -> exclusive ? exclusively(exclusiveTargets, 0, step) : step.getAsBoolean());
            } finally {
                for (int index = 0; index < sources.length; index++) {
                    tableOf(sources[index]).rowIdLock().unpin(pins[index]);
                }
            }
            if (applied) {
                break;
            }
            attempt++;
        }
    }

    private int[] allTargets() {
        int[] targets = new int[targetCount];
        Arrays.setAll(targets, index -> index);
        return targets;
    }

    /** Runs {@code step} holding the write locks of {@code targets[from ..]}, taken in order. */
    private boolean exclusively(int[] targets, int from, BooleanSupplier step) {
        if (from == targets.length) {
            return step.getAsBoolean();
        }
        return storageOf(targets[from]).exclusively(() -> exclusively(targets, from + 1, step));
    }

    /** One attempt: collect the changes from the current state and apply them; false when the state moved. */
    private boolean attempt(Batch proposed, int[] proposedTargets, Batch keyValues, int[] sources) {
        try {
            return collectAndApply(proposed, proposedTargets, keyValues, sources);
        } catch (RuntimeException failure) {
            if (failure == UNPUBLISHED) {
                Thread.onSpinWait();
                return false;
            }
            throw failure;
        }
    }

    private boolean collectAndApply(Batch proposed, int[] proposedTargets, Batch keyValues, int[] sources) {
        for (TableChanges changes : acquired) {
            changes.clear();
        }
        outputCount = 0;
        switch (node.operation()) {
            case INSERT -> collectInsert(proposed, proposedTargets);
            case UPDATE -> {
                if (targetRows != null) {
                    collectFromInput(sources);
                } else {
                    collectTargets(keyValues, sources);
                    collectUpdates(sources);
                }
            }
            case DELETE -> {
                if (targetRows != null) {
                    collectFromInput(sources);
                } else {
                    collectTargets(keyValues, sources);
                }
            }
        }
        boolean[] retryConstraints = node.onConflict() == null ? null : arbiterFlags;
        if (foreignKeys != null) {
            // Tables in foreign keys are never partitioned: the statement's one change set is its table's.
            List<TableChanges> cascaded = foreignKeys.enforce(firstChanges);
            if (!cascaded.isEmpty()) {
                List<TableChanges> sets = new ArrayList<>(cascaded.size() + 1);
                if (!firstChanges.isEmpty()) {
                    sets.add(firstChanges);
                }
                sets.addAll(cascaded);
                // Every writer of several tables takes their locks in one order: no two wait for each other.
                sets.sort((left, right) -> Long.compare(left.table().lockOrder(), right.table().lockOrder()));
                return LargeStack.call(2 * sets.size() + 2, () -> TableChanges.applyAll(sets, retryConstraints));
            }
        }
        if (acquired.size() <= 1) {
            return acquired.isEmpty() || firstChanges.apply(retryConstraints);
        }
        // The partitions' steps nest in partition order (the lock order every writer follows).
        List<Integer> order = new ArrayList<>(acquired.size());
        for (int index = 0; index < acquired.size(); index++) {
            if (!acquired.get(index).isEmpty()) {
                order.add(index);
            }
        }
        order.sort((left, right) -> Integer.compare(acquiredTargets[left], acquiredTargets[right]));
        List<TableChanges> sets = new ArrayList<>(order.size());
        for (int index : order) {
            sets.add(acquired.get(index));
        }
        return TableChanges.applyAll(sets, retryConstraints);
    }

    /**
     * Notes that the row {@code row} of {@code target}'s set is returned next, made from input row
     * {@code inputRow} of the target rows read from the input plan.
     */
    private void addOutputFromInput(int target, int row, int inputRow) {
        if (returning.length == 0) {
            return;
        }
        if (outputCount == outputOrder.length) {
            outputOrder = Arrays.copyOf(outputOrder, outputCount * 2);
        }
        if (outputCount == outputInputRows.length) {
            outputInputRows = Arrays.copyOf(outputInputRows, outputCount * 2);
        }
        outputInputRows[outputCount] = inputRow;
        outputOrder[outputCount++] = (long) target << 32 | row;
    }

    /** Notes that the row {@code row} of {@code target}'s set is returned next (partitioned tables with RETURNING). */
    private void addOutput(int target, int row) {
        if (router == null || returning.length == 0) {
            return;
        }
        if (outputCount == outputOrder.length) {
            outputOrder = Arrays.copyOf(outputOrder, outputCount * 2);
        }
        outputOrder[outputCount++] = (long) target << 32 | row;
    }

    // ---- INSERT [ON CONFLICT] ----

    private Batch collectProposedRows() {
        if (proposedRows == null) {
            proposedRows = Batch.create(columnTypes, 4);
        }
        Batch rows = proposedRows;
        rows.reset();
        int rowCount = 0;
        Batch batch;
        while ((batch = input.next()) != null) {
            context.checkCancelled();
            Batch assigned = assignment.convert(batch);
            rows.ensureCapacity(rowCount + assigned.selectedCount());
            BatchCopier.appendLiveRows(assigned, rows, rowCount);
            rowCount += assigned.selectedCount();
        }
        rows.setRowCount(rowCount);
        return rows;
    }

    /** The partition of each proposed row; 23514 for a row no partition accepts (before any conflict is looked at, as PostgreSQL routes first). */
    private int[] route(Batch rows) {
        int[] ordinals = new int[rows.rowCount()];
        router.route(rows, ordinals);
        for (int row = 0; row < rows.rowCount(); row++) {
            if (ordinals[row] == PartitionRouter.NO_PARTITION) {
                throw router.noPartition(rows, row);
            }
        }
        return ordinals;
    }

    private void collectInsert(Batch proposed, int[] proposedTargets) {
        int count = proposed.rowCount();
        OnConflict onConflict = node.onConflict();
        if (onConflict == null) {
            for (int row = 0; row < count; row++) {
                int target = proposedTargets == null ? 0 : proposedTargets[row];
                addOutput(target, changes(target).addNew(proposed, row, -1));
            }
            return;
        }
        // Pass 1: find each proposed row's conflict. -1: insert, -2: skip, p >= 0: the conflict pair p.
        int[] actions = new int[count];
        long[] conflictRowIds = new long[Math.min(count, 16)];
        Batch conflictOld = null;
        Batch conflictExcluded = null;
        int pairs = 0;
        int arbiterCount = arbiterPositions.length;
        List<Set<String>> proposedKeys = count > 1 ? new ArrayList<>() : null;
        if (proposedKeys != null) {
            for (int index = 0; index < arbiterCount; index++) {
                proposedKeys.add(new HashSet<>());
            }
        }
        for (int row = 0; row < count; row++) {
            int target = proposedTargets == null ? 0 : proposedTargets[row];
            long abandoned = storageOf(target).abandonedSteps();
            long conflict = RowIds.ABSENT;
            boolean repeated = false;
            for (int index = 0; index < arbiterCount && conflict == RowIds.ABSENT && !repeated; index++) {
                int[] keyColumns = changes(target).keyColumns(arbiterPositions[index]);
                if (proposedKeys != null) {
                    String key = keyText(proposed, keyColumns, row);
                    repeated = key != null && !proposedKeys.get(index).add(key);
                }
                if (!repeated) {
                    conflict = changes(target).constraint(arbiterPositions[index]).index().get(proposed, keyColumns, row);
                }
            }
            if (repeated) {
                if (onConflict.action() == ConflictAction.UPDATE) {
                    throw new ParallaxException(SqlState.CARDINALITY_VIOLATION,
                            "ON CONFLICT DO UPDATE command cannot affect row a second time")
                            .withHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.");
                }
                actions[row] = -2;
            } else if (conflict == RowIds.ABSENT) {
                actions[row] = -1;
            } else if (onConflict.action() == ConflictAction.NOTHING) {
                // The key exists once a step that went through published its row.
                if (!storageOf(target).isPublished(conflict)) {
                    throw UNPUBLISHED;
                }
                requireNoAbandonedStep(storageOf(target), abandoned);
                actions[row] = -2;
            } else {
                if (conflictOld == null) {
                    if (conflictRows == null) {
                        conflictRows = Batch.create(columnTypes, 4);
                        excludedRows = Batch.create(columnTypes, 4);
                    }
                    conflictOld = conflictRows;
                    conflictExcluded = excludedRows;
                    conflictOld.reset();
                    conflictExcluded.reset();
                }
                if (pairs == conflictRowIds.length) {
                    conflictRowIds = Arrays.copyOf(conflictRowIds, pairs * 2);
                }
                readRow(target, conflict);
                requireNoAbandonedStep(storageOf(target), abandoned);
                TableChanges.copyRow(rowBuffer, 0, conflictOld, pairs);
                TableChanges.copyRow(proposed, row, conflictExcluded, pairs);
                conflictRowIds[pairs] = conflict;
                actions[row] = pairs++;
            }
        }
        // The DO UPDATE expressions, once over all conflict pairs: (existing row ++ excluded row).
        Batch updated = null;
        boolean[] passes = null;
        if (pairs > 0) {
            conflictOld.setRowCount(pairs);
            conflictExcluded.setRowCount(pairs);
            ColumnVector[] combinedColumns = new ColumnVector[columnTypes.size() * 2];
            for (int column = 0; column < columnTypes.size(); column++) {
                combinedColumns[column] = conflictOld.column(column);
                combinedColumns[columnTypes.size() + column] = conflictExcluded.column(column);
            }
            Batch combined = new Batch(combinedColumns);
            combined.setRowCount(pairs);
            passes = select(conflictCondition, combined);
            updated = computeNewVersions(conflictAssignments, combined, conflictOld, table);
            if (router != null) {
                requireSamePartitions(updated, passes, proposedTargets, actions);
            }
        }
        // Pass 2, in the proposed order (RETURNING and the key checks follow it).
        for (int row = 0; row < count; row++) {
            int action = actions[row];
            int target = proposedTargets == null ? 0 : proposedTargets[row];
            if (action == -1) {
                addOutput(target, changes(target).addNew(proposed, row, -1));
            } else if (action >= 0 && passes[action]) {
                TableChanges changes = changes(target);
                int old = changes.addOld(conflictRowIds[action], conflictOld, action);
                addOutput(target, changes.addNew(updated, action, old));
            }
        }
    }

    /**
     * ON CONFLICT DO UPDATE keeps each updated row in its partition: PostgreSQL refuses to move it
     * (0A000) rather than insert it elsewhere behind the arbiter's back.
     */
    private void requireSamePartitions(Batch updated, boolean[] passes, int[] proposedTargets, int[] actions) {
        int[] ordinals = new int[updated.rowCount()];
        router.route(updated, ordinals);
        for (int row = 0; row < actions.length; row++) {
            int pair = actions[row];
            if (pair >= 0 && passes[pair] && ordinals[pair] != proposedTargets[row]) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "invalid ON UPDATE specification")
                        .withDetail("The result tuple would appear in a different partition than the original tuple.");
            }
        }
    }

    /** The key of row {@code row} as text for spotting repeats within the statement, or null when a key column is NULL. */
    private static String keyText(Batch rows, int[] keyColumns, int row) {
        StringBuilder text = new StringBuilder();
        for (int column : keyColumns) {
            String value = ValueText.format(rows.column(column), row);
            if (value == null) {
                return null;
            }
            text.append(value).append('\u0000');
        }
        return text.toString();
    }

    // ---- UPDATE and DELETE ----

    /** Evaluates the lookup's key values once per execution into a one-row batch of the key columns' types. */
    private Batch lookupKey(KeyLookup lookup) {
        int[] keyColumns = lookup.constraint().keyColumns();
        List<DataType> keyTypes = new ArrayList<>(keyColumns.length);
        for (int column : keyColumns) {
            keyTypes.add(columnTypes.get(column));
        }
        Batch key = Batch.create(keyTypes, 1);
        for (int index = 0; index < keyColumns.length; index++) {
            ConstantValues.store(key.column(index), 0, ConstantValues.evaluate(lookup.values().get(index), context));
        }
        key.setRowCount(1);
        return key;
    }

    /** Adds every row the statement targets in {@code sources}, live now, as an old version to its target's change set. */
    private void collectTargets(Batch keyValues, int[] sources) {
        boolean deleting = node.operation() == ModifyOperation.DELETE;
        if (keyValues != null) {
            if (sources.length == 0) {
                return;
            }
            int target = sources[0];
            int[] positions = new int[keyValues.columnCount()];
            for (int index = 0; index < positions.length; index++) {
                positions[index] = index;
            }
            PagedTableStorage storage = storageOf(target);
            long abandoned = storage.abandonedSteps();
            long rowId = changes(target).constraint(lookupPosition).index().get(keyValues, positions, 0);
            if (rowId == RowIds.ABSENT) {
                requireNoAbandonedStep(storage, abandoned);
                return;
            }
            readRow(target, rowId);
            requireNoAbandonedStep(storage, abandoned);
            boolean[] passes = select(condition, rowBuffer);
            if (passes[0]) {
                int old = changes(target).addOld(rowId, rowBuffer, 0);
                if (deleting) {
                    addOutput(target, old);
                }
            }
            return;
        }
        ScanSnapshot[] snapshots = consistentSnapshots(sources);
        Batch page = null;
        int[] slots = null;
        int[] selected = null;
        for (int source = 0; source < sources.length; source++) {
            int target = sources[source];
            TableChanges changes = changes(target);
            PagedTableStorage storage = changes.storage();
            ScanSnapshot snapshot = snapshots[source];
            if (snapshot.pageCount() == 0) {
                continue;
            }
            if (page == null) {
                page = Batch.create(columnTypes, Batch.DEFAULT_CAPACITY);
            }
            if (slots == null || slots.length < storage.pageSlotCapacity()) {
                slots = new int[storage.pageSlotCapacity()];
                selected = new int[Math.max(Batch.DEFAULT_CAPACITY, storage.pageSlotCapacity())];
            }
            for (int pageIndex = 0; pageIndex < snapshot.pageCount(); pageIndex++) {
                context.checkCancelled();
                int rows = storage.readPage(pageIndex, allColumns, page, snapshot, slots);
                if (rows == 0) {
                    continue;
                }
                if (condition == null) {
                    for (int row = 0; row < rows; row++) {
                        int old = changes.addOld(RowIds.pack(pageIndex, slots[row]), page, row);
                        if (deleting) {
                            addOutput(target, old);
                        }
                    }
                    continue;
                }
                if (selected.length < rows) {
                    selected = new int[rows];
                }
                int count = condition.select(page, selected);
                for (int index = 0; index < count; index++) {
                    int row = selected[index];
                    int old = changes.addOld(RowIds.pack(pageIndex, slots[row]), page, row);
                    if (deleting) {
                        addOutput(target, old);
                    }
                }
            }
        }
    }

    /**
     * One snapshot per source, all showing the partitions as they were at one moment: snapshots
     * taken one after the other could miss a row that another statement moved from a partition
     * not yet looked at into one already looked at (or see it twice, which the apply step would
     * catch). The cut is consistent when no partition changed between its snapshot and the end of
     * taking them all; otherwise the attempt starts over (an exclusive attempt, holding the
     * sources' write locks, always gets one). No snapshot falls between the publishes of a
     * statement changing several partitions: it holds their snapshots back meanwhile
     * ({@link PagedTableStorage#holdSnapshots()}), so a check after all of them sees its changes.
     *
     * <p>Not registered (openSnapshot): the attempt's row id pins already keep VACUUM from compacting
     * a page or shortening the tables, and registering could wait on VACUUM while a storage's
     * write lock is held (the exclusive attempt), against VACUUM's lock order.
     */
    private ScanSnapshot[] consistentSnapshots(int[] sources) {
        ScanSnapshot[] snapshots = new ScanSnapshot[sources.length];
        for (int source = 0; source < sources.length; source++) {
            snapshots[source] = changes(sources[source]).storage().snapshot();
        }
        if (sources.length > 1) {
            for (int source = 0; source < sources.length; source++) {
                if (changes(sources[source]).storage().changeSequence() != snapshots[source].sequence()) {
                    throw UNPUBLISHED;
                }
            }
        }
        return snapshots;
    }

    /**
     * The new version of every old row collected, per source in partition order. A version whose
     * partition key now hashes elsewhere moves: it is inserted into its new partition (and its old
     * version, left without successor, dies); 23514 when no partition accepts it.
     */
    private void collectUpdates(int[] sources) {
        for (int target : sources) {
            TableChanges changes = touchedChanges(target);
            int count = changes == null ? 0 : changes.oldCount();
            if (count == 0) {
                continue;
            }
            Batch old = changes.oldRows();
            Batch updated = computeNewVersions(assignments, old, old, tableOf(target));
            int[] destinations = null;
            if (movesRows) {
                destinations = new int[count];
                router.route(updated, destinations);
            }
            for (int row = 0; row < count; row++) {
                int destination = destinations == null ? target : destinations[row];
                if (destination == target) {
                    addOutput(target, changes.addNew(updated, row, row));
                } else if (destination == PartitionRouter.NO_PARTITION) {
                    throw router.noPartition(updated, row);
                } else {
                    addOutput(destination, changes(destination).addNew(updated, row, -1));
                }
            }
        }
    }

    /**
     * Adds the target rows the input plan names (each once, with the first input row naming it) as
     * old versions, and for an UPDATE their new versions, computed over their input rows; a version
     * whose partition key now hashes elsewhere moves as in {@link #collectUpdates}.
     */
    private void collectFromInput(int[] sources) {
        Batch rows = targetRows.read(sources, context);
        if (rows == null) {
            throw UNPUBLISHED;
        }
        int count = rows.rowCount();
        int[] targets = targetRows.targets();
        long[] rowIds = targetRows.rowIds();
        if (node.operation() == ModifyOperation.DELETE) {
            for (int row = 0; row < count; row++) {
                addOutputFromInput(targets[row], changes(targets[row]).addOld(rowIds[row], rows, row), row);
            }
            return;
        }
        if (count == 0) {
            return;
        }
        Batch updated = computeNewVersions(assignments, rows, rows, null);
        targetRows.checkNotNull(updated, this::tableOf);
        if (updateChecks != null) {
            // A violation names the partition the row is in, as PostgreSQL checks each row in its partition.
            updateChecks.check(updated, table);
        }
        int[] destinations = null;
        if (movesRows) {
            destinations = new int[count];
            router.route(updated, destinations);
        }
        for (int row = 0; row < count; row++) {
            int target = targets[row];
            TableChanges changes = changes(target);
            int old = changes.addOld(rowIds[row], rows, row);
            int destination = destinations == null ? target : destinations[row];
            if (destination == target) {
                addOutputFromInput(target, changes.addNew(updated, row, old), row);
            } else if (destination == PartitionRouter.NO_PARTITION) {
                throw router.noPartition(updated, row);
            } else {
                addOutputFromInput(destination, changes(destination).addNew(updated, row, -1), row);
            }
        }
    }

    /**
     * The new versions of the rows of {@code input}: per column the assignment evaluated over
     * {@code input}, or the value of {@code kept} where the column is not assigned; NOT NULL and CHECK
     * constraints checked (a violation names {@code checked}, the row's table or partition, as PostgreSQL does)
     * unless {@code checked} is null.
     */
    private Batch computeNewVersions(VectorExpression[] expressions, Batch input, Batch kept, Table checked) {
        ColumnVector[] columns = new ColumnVector[columnTypes.size()];
        for (int column = 0; column < columns.length; column++) {
            columns[column] = expressions[column] == null ? kept.column(column) : expressions[column].evaluate(input);
        }
        Batch updated = new Batch(columns);
        updated.setRowCount(input.rowCount());
        if (checked != null) {
            AssignedRows.checkNotNull(checked, updated);
            if (updateChecks != null) {
                updateChecks.check(updated, checked);
            }
        }
        return updated;
    }

    /** Per row of {@code rows} (no selection): whether {@code predicate} holds; all true when it is null. */
    private static boolean[] select(Predicate predicate, Batch rows) {
        boolean[] passes = new boolean[rows.rowCount()];
        if (predicate == null) {
            Arrays.fill(passes, true);
            return passes;
        }
        int[] selected = new int[rows.rowCount()];
        int count = predicate.select(rows, selected);
        for (int index = 0; index < count; index++) {
            passes[selected[index]] = true;
        }
        return passes;
    }

    /**
     * Reads the row {@code rowId} of {@code target} (all columns) into {@link #rowBuffer}. A row id
     * found in an index may belong to a row another writer has placed but not yet published: the
     * attempt then starts over ({@link #UNPUBLISHED}), by which time that writer has published or
     * given up.
     */
    private void readRow(int target, long rowId) {
        if (!storageOf(target).readPublishedRow(rowId, allColumns, rowBuffer)) {
            throw UNPUBLISHED;
        }
    }

    /**
     * Starts the attempt over ({@link #UNPUBLISHED}) when a write step of {@code storage} was
     * abandoned since the caller read {@code abandonedBefore} and looked a key up: the row id found
     * may have named a slot that step gave up and another row took, or the key may have been
     * missing only while that step ran ({@link PagedTableStorage#abandonedSteps()}).
     */
    private static void requireNoAbandonedStep(PagedTableStorage storage, long abandonedBefore) {
        if (storage.abandonedSteps() != abandonedBefore) {
            throw UNPUBLISHED;
        }
    }

    /** An assignment of an input column of the column's own type: evaluates to that column. */
    private record ColumnCopy(int index) implements VectorExpression {
        @Override
        public ColumnVector evaluate(Batch input) {
            return input.column(index);
        }
    }

    // ---- output ----

    private Batch countBatch() {
        long count = 0;
        for (TableChanges changes : acquired) {
            count += node.operation() == ModifyOperation.DELETE ? changes.oldCount() : changes.newCount();
        }
        if (foreignKeys != null) {
            // Rows a foreign key's action added to the statement's own set (a self-referencing table) are not counted.
            count = node.operation() == ModifyOperation.DELETE ? foreignKeys.statementOldRows() : foreignKeys.statementNewRows();
        }
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, count);
        result.setRowCount(1);
        output = result;
        return result;
    }

    private Batch returningBatch() {
        boolean deleting = node.operation() == ModifyOperation.DELETE;
        Batch rows;
        if (targetRows != null) {
            rows = targetRows.returnedRows(outputCount, outputOrder, outputInputRows,
                    target -> deleting ? touchedChanges(target).oldRows() : touchedChanges(target).newRows());
        } else if (router == null) {
            rows = deleting ? firstChanges.oldRows() : firstChanges.newRows();
            if (foreignKeys != null) {
                rows.setRowCount(deleting ? foreignKeys.statementOldRows() : foreignKeys.statementNewRows());
            }
        } else {
            rows = Batch.create(columnTypes, Math.max(1, outputCount));
            for (int index = 0; index < outputCount; index++) {
                TableChanges changes = touchedChanges((int) (outputOrder[index] >>> 32));
                Batch source = deleting ? changes.oldRows() : changes.newRows();
                TableChanges.copyRow(source, (int) outputOrder[index], rows, index);
            }
            rows.setRowCount(outputCount);
        }
        if (rows.rowCount() == 0) {
            return null;
        }
        ColumnVector[] columns = new ColumnVector[returning.length];
        for (int index = 0; index < returning.length; index++) {
            columns[index] = returning[index].evaluate(rows);
        }
        Batch result = new Batch(columns);
        result.setRowCount(rows.rowCount());
        output = result;
        return result;
    }

    @Override
    public void close() {
        if (input != null) {
            input.close();
        }
        output = null;
        for (TableChanges changes : acquired) {
            changes.release();
        }
        acquired.clear();
    }
}
