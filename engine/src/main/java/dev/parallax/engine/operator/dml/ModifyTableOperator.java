package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.KeyLookup;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.OnConflict;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a {@link ModifyTableNode}: INSERT [ON CONFLICT], UPDATE and DELETE, all or nothing, with
 * RETURNING.
 *
 * <p>Each attempt first works out the statement's changes without any lock: it finds the target
 * rows (a scan with one snapshot, or a point lookup through a unique index) or, for an upsert, looks
 * each proposed key up in the arbiter index and reads the rows it conflicts with, and computes the
 * new versions ({@link TableChanges}). It then applies them in one short step under the table's
 * write lock, which fails when another statement changed one of those rows or inserted one of
 * those keys in between; the attempt is then repeated on the new state, so no update is lost and no
 * key is stored twice (PostgreSQL re-checks the newest version of a row in READ COMMITTED the same
 * way). The per-key critical section is thus the index check inside that step: lookups, reads and
 * expression evaluation stay outside it. After {@value #OPTIMISTIC_ATTEMPTS} failed attempts (heavy
 * contention on the same keys) an attempt runs wholly under the write lock, so every statement
 * finishes.
 *
 * <p>The output is the RETURNING rows when the node has RETURNING, otherwise one BIGINT row with
 * the number of rows inserted, updated or deleted.
 */
public final class ModifyTableOperator implements Operator {
    static final int OPTIMISTIC_ATTEMPTS = 3;
    /** Attempts under the write lock can only fail on a bug; give up rather than loop forever. */
    private static final int MAXIMUM_ATTEMPTS = OPTIMISTIC_ATTEMPTS + 8;

    /** Abandons an attempt that read a row id whose row is not published yet; carries no stack trace. */
    private static final RuntimeException UNPUBLISHED = new RuntimeException("row not published yet", null, false, false) {
    };

    private final ModifyTableNode node;
    private final Table table;
    private final ExecutionContext context;
    private final TableChanges changes;
    private final PagedTableStorage storage;
    private final int[] allColumns;
    private final List<DataType> columnTypes;
    /** INSERT: the proposed rows' source and their conversion to the column types. */
    private final Operator input;
    private final AssignedRows assignment;
    /** UPDATE/DELETE: the WHERE condition, or null. */
    private final Predicate condition;
    /** UPDATE: per column the new value (over the old row), null where it keeps its value. */
    private final VectorExpression[] assignments;
    /** ON CONFLICT DO UPDATE: SET per column (over old ++ excluded), null where kept; the WHERE or null. */
    private final VectorExpression[] conflictAssignments;
    private final Predicate conflictCondition;
    /** ON CONFLICT: the arbiter constraints, and per table constraint whether it is one. */
    private final List<UniqueConstraint> arbiters;
    private final boolean[] arbiterFlags;
    private final VectorExpression[] returning;
    /** Scratch: one row read through a row id. */
    private final Batch rowBuffer;
    private boolean done;
    private Batch output;

    public ModifyTableOperator(ModifyTableNode node, Operator input, ExecutionContext context) {
        this.node = node;
        this.table = node.table();
        this.context = context;
        this.changes = TableChanges.acquire(table);
        this.storage = changes.storage();
        this.columnTypes = table.columnTypes();
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
        OnConflict onConflict = node.onConflict();
        if (onConflict != null && onConflict.action() == ConflictAction.UPDATE) {
            this.conflictAssignments = compileAssignments(onConflict.assignments());
            this.conflictCondition = onConflict.condition() == null ? null
                    : ExpressionCompiler.compilePredicate(onConflict.condition(), context);
        } else {
            this.conflictAssignments = null;
            this.conflictCondition = null;
        }
        List<UniqueConstraint> constraints = table.uniqueConstraints();
        this.arbiters = onConflict == null ? List.of() : onConflict.arbiters();
        this.arbiterFlags = new boolean[constraints.size()];
        for (UniqueConstraint arbiter : arbiters) {
            int position = constraints.indexOf(arbiter);
            if (position < 0) {
                throw new IllegalArgumentException("constraint " + arbiter.name() + " is not on table " + table.name());
            }
            arbiterFlags[position] = true;
        }
        this.returning = new VectorExpression[node.returning().size()];
        for (int index = 0; index < returning.length; index++) {
            returning[index] = ExpressionCompiler.compile(node.returning().get(index), context);
        }
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

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        Batch proposed = node.operation() == ModifyOperation.INSERT ? collectProposedRows() : null;
        Batch keyValues = node.lookup() == null ? null : lookupKey(node.lookup());
        int attempt = 0;
        while (true) {
            context.checkCancelled();
            if (attempt >= MAXIMUM_ATTEMPTS) {
                throw new IllegalStateException("modification of " + table.name() + " failed " + attempt + " times under the write lock");
            }
            boolean applied;
            // The row ids an attempt reads stay valid until it applies: VACUUM compacts no page meanwhile.
            // Pin first, then the storage lock: VACUUM takes them in that order too.
            long pin = table.rowIdLock().pin();
            try {
                applied = attempt < OPTIMISTIC_ATTEMPTS ? attempt(proposed, keyValues)
                        : storage.exclusively(() -> attempt(proposed, keyValues));
            } finally {
                table.rowIdLock().unpin(pin);
            }
            if (applied) {
                break;
            }
            attempt++;
        }
        return returning.length == 0 ? countBatch() : returningBatch();
    }

    /** One attempt: collect the changes from the current state and apply them; false when the state moved. */
    private boolean attempt(Batch proposed, Batch keyValues) {
        try {
            return collectAndApply(proposed, keyValues);
        } catch (RuntimeException failure) {
            if (failure == UNPUBLISHED) {
                Thread.onSpinWait();
                return false;
            }
            throw failure;
        }
    }

    private boolean collectAndApply(Batch proposed, Batch keyValues) {
        changes.clear();
        switch (node.operation()) {
            case INSERT -> collectInsert(proposed);
            case UPDATE -> {
                collectTargets(keyValues);
                collectUpdates();
            }
            case DELETE -> collectTargets(keyValues);
        }
        return changes.apply(node.onConflict() == null ? null : arbiterFlags);
    }

    // ---- INSERT [ON CONFLICT] ----

    private Batch collectProposedRows() {
        Batch rows = changes.proposedRows;
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

    private void collectInsert(Batch proposed) {
        int count = proposed.rowCount();
        OnConflict onConflict = node.onConflict();
        if (onConflict == null) {
            for (int row = 0; row < count; row++) {
                changes.addNew(proposed, row, -1);
            }
            return;
        }
        // Pass 1: find each proposed row's conflict. -1: insert, -2: skip, p >= 0: the conflict pair p.
        int[] actions = new int[count];
        long[] conflictRowIds = new long[Math.min(count, 16)];
        Batch conflictOld = null;
        Batch conflictExcluded = null;
        int pairs = 0;
        List<Set<String>> proposedKeys = count > 1 ? new ArrayList<>() : null;
        if (proposedKeys != null) {
            for (int index = 0; index < arbiters.size(); index++) {
                proposedKeys.add(new HashSet<>());
            }
        }
        for (int row = 0; row < count; row++) {
            long conflict = RowIds.ABSENT;
            boolean repeated = false;
            for (int index = 0; index < arbiters.size() && conflict == RowIds.ABSENT && !repeated; index++) {
                UniqueConstraint arbiter = arbiters.get(index);
                int[] keyColumns = arbiter.keyColumns();
                if (proposedKeys != null) {
                    String key = keyText(proposed, keyColumns, row);
                    repeated = key != null && !proposedKeys.get(index).add(key);
                }
                if (!repeated) {
                    conflict = arbiter.index().get(proposed, keyColumns, row);
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
                actions[row] = -2;
            } else {
                if (conflictOld == null) {
                    conflictOld = changes.conflictRows;
                    conflictExcluded = changes.excludedRows;
                    conflictOld.reset();
                    conflictExcluded.reset();
                }
                if (pairs == conflictRowIds.length) {
                    conflictRowIds = java.util.Arrays.copyOf(conflictRowIds, pairs * 2);
                }
                readRow(conflict);
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
            updated = computeNewVersions(conflictAssignments, combined, conflictOld);
        }
        // Pass 2, in the proposed order (RETURNING and the key checks follow it).
        for (int row = 0; row < count; row++) {
            int action = actions[row];
            if (action == -1) {
                changes.addNew(proposed, row, -1);
            } else if (action >= 0 && passes[action]) {
                int old = changes.addOld(conflictRowIds[action], conflictOld, action);
                changes.addNew(updated, action, old);
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

    /** Adds every row the statement targets, live now, as an old version to {@link #changes}. */
    private void collectTargets(Batch keyValues) {
        if (keyValues != null) {
            int[] positions = new int[keyValues.columnCount()];
            for (int index = 0; index < positions.length; index++) {
                positions[index] = index;
            }
            long rowId = node.lookup().constraint().index().get(keyValues, positions, 0);
            if (rowId == RowIds.ABSENT) {
                return;
            }
            readRow(rowId);
            boolean[] passes = select(condition, rowBuffer);
            if (passes[0]) {
                changes.addOld(rowId, rowBuffer, 0);
            }
            return;
        }
        // Not registered (openSnapshot): the attempt's row id pin already keeps VACUUM from compacting
        // a page or shortening the table, and registering could wait on VACUUM while the storage's
        // write lock is held (the exclusive attempt), against VACUUM's lock order.
        ScanSnapshot snapshot = storage.snapshot();
        Batch page = Batch.create(columnTypes, Batch.DEFAULT_CAPACITY);
        int[] slots = new int[storage.pageSlotCapacity()];
        int[] selected = new int[Math.max(Batch.DEFAULT_CAPACITY, storage.pageSlotCapacity())];
        for (int pageIndex = 0; pageIndex < snapshot.pageCount(); pageIndex++) {
            context.checkCancelled();
            int rows = storage.readPage(pageIndex, allColumns, page, snapshot, slots);
            if (rows == 0) {
                continue;
            }
            if (condition == null) {
                for (int row = 0; row < rows; row++) {
                    changes.addOld(RowIds.pack(pageIndex, slots[row]), page, row);
                }
                continue;
            }
            if (selected.length < rows) {
                selected = new int[rows];
            }
            int count = condition.select(page, selected);
            for (int index = 0; index < count; index++) {
                int row = selected[index];
                changes.addOld(RowIds.pack(pageIndex, slots[row]), page, row);
            }
        }
    }

    private void collectUpdates() {
        int count = changes.oldCount();
        if (count == 0) {
            return;
        }
        Batch old = changes.oldRows();
        Batch updated = computeNewVersions(assignments, old, old);
        for (int row = 0; row < count; row++) {
            changes.addNew(updated, row, row);
        }
    }

    /**
     * The new versions of the rows of {@code input}: per column the assignment evaluated over
     * {@code input}, or the value of {@code kept} where the column is not assigned; NOT NULL checked.
     */
    private Batch computeNewVersions(VectorExpression[] expressions, Batch input, Batch kept) {
        ColumnVector[] columns = new ColumnVector[columnTypes.size()];
        for (int column = 0; column < columns.length; column++) {
            columns[column] = expressions[column] == null ? kept.column(column) : expressions[column].evaluate(input);
        }
        Batch updated = new Batch(columns);
        updated.setRowCount(input.rowCount());
        AssignedRows.checkNotNull(table, updated);
        return updated;
    }

    /** Per row of {@code rows} (no selection): whether {@code predicate} holds; all true when it is null. */
    private static boolean[] select(Predicate predicate, Batch rows) {
        boolean[] passes = new boolean[rows.rowCount()];
        if (predicate == null) {
            java.util.Arrays.fill(passes, true);
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
     * Reads the row {@code rowId} (all columns) into {@link #rowBuffer}. A row id found in an index
     * may belong to a row another writer has placed but not yet published: the attempt then starts
     * over ({@link #UNPUBLISHED}), by which time that writer has published or given up.
     */
    private void readRow(long rowId) {
        if (!storage.readPublishedRow(rowId, allColumns, rowBuffer)) {
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
        long count = node.operation() == ModifyOperation.DELETE ? changes.oldCount() : changes.newCount();
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, count);
        result.setRowCount(1);
        output = result;
        return result;
    }

    private Batch returningBatch() {
        Batch rows = node.operation() == ModifyOperation.DELETE ? changes.oldRows() : changes.newRows();
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
        changes.release();
    }
}
