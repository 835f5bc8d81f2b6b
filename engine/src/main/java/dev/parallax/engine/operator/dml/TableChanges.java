package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.storage.AppendGuard;
import dev.parallax.engine.storage.AppendScratch;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One statement's changes to one table, collected first and then applied in one step: the old
 * versions it kills (with their row ids and values) and the new versions it adds, each new version
 * either inserted or replacing one of the old ones.
 *
 * <p>{@link #apply} hands the new rows to {@link PagedTableStorage#modify}, which writes them
 * invisibly, runs the constraint maintenance below under the storage's write lock, and then
 * publishes the new rows and the deaths together. Every writer of the table changes its unique
 * indexes under that lock only, and an index entry always points at the live version of its key
 * (invariant), so under the lock "the old row is still live" (checked by {@code modify}) implies
 * "its index entries point at it". Per constraint, the keys of deleted rows are removed first, then
 * each changed key is removed and its new key put, row by row in the statement's order
 * (PostgreSQL's per-row check of a non-deferrable constraint: two rows cannot swap keys), then the
 * keys of inserted rows are put. A key already present fails the step: 23505, or a retry when the
 * caller proposed the row on the strength of an earlier lookup that found the key absent
 * ({@link #apply}'s {@code retryConstraints}). A failing step undoes its index changes and leaves
 * the table as it was.
 *
 * <p>The entries of keys an update keeps move to the new versions only once these are published,
 * still under the lock ({@link #repointUnchangedKeys}): a reader following the index without the
 * lock (a point query) then always finds a published version of the row, the old one until the
 * publish and for a moment after it, never a slot it may not read yet. Entries of new keys name
 * unpublished slots until the publish, as the key did not exist before.
 *
 * <p>Used by one thread (the statement's); {@link #clear} prepares it for a retry.
 */
final class TableChanges {
    /** Thrown inside the guard to abandon a step that must be retried; carries no stack trace. */
    private static final class Retry extends RuntimeException {
        Retry() {
            super("concurrent change", null, false, false);
        }
    }

    private static final Retry RETRY = new Retry();
    private static final int REMOVED = 0;
    private static final int PUT = 1;

    private PagedTableStorage storage;
    /** The table's constraints; null after {@link #acquirePartition} until {@link #constraint} reads them. */
    private List<UniqueConstraint> constraints;
    /** The table's parent when it is a partition, else null. */
    private Table parent;
    /**
     * The index of constraint position {@code c} is {@code indexes[indexesFrom + c]}: an array of
     * this set's own, or {@link #acquirePartition}'s, which holds other per-partition references
     * between the indexes (hence Object[]).
     */
    private Object[] indexes;
    private int indexesFrom;
    /** Whether {@link #indexes} is this set's own array (else {@link #acquirePartition}'s caller's, not to be written). */
    private boolean ownsIndexes;
    private int constraintCount;
    private int[][] keyColumns;
    private final Batch oldRows;
    private long[] oldRowIds = new long[16];
    /** Per old row: the new row replacing it, or -1 (deleted). */
    private int[] successors = new int[16];
    private int oldCount;
    private final Batch newRows;
    private final List<Batch> newRowsAsList;
    /** Per new row: the old row it replaces, or -1 (inserted). */
    private int[] predecessors = new int[16];
    private int newCount;
    /** Row ids of the new rows once placed (valid inside and after a successful apply). */
    private long[] newRowIds;
    /** Undo log of the index changes of the step under way: (kind, constraint, row) triples. */
    private int[] undo = new int[48];
    private int undoLength;

    /**
     * The last change set each thread used, reused by its next statement on a table of the same
     * column types (the same table, or another partition of the same parent: its batches only
     * depend on the types): a prepared point upsert then allocates no batches per execution
     * (measured: a third of the upsert's allocation), also when each execution hits another
     * partition. Holds at most one set per thread; a dropped table's set is simply retargeted or
     * replaced by the next statement's.
     */
    private static final ThreadLocal<TableChanges> LAST_USED = new ThreadLocal<>();

    private Table table;
    private final List<DataType> columnTypes;
    private boolean inUse;
    /** Scratch batches of the table's column types for the operator: proposed rows, conflicting rows and their excluded rows. */
    final Batch proposedRows;
    final Batch conflictRows;
    final Batch excludedRows;

    /** A change set for {@code table}, empty, reused from this thread's last statement when it was on the same table; {@link #release} it. */
    static TableChanges acquire(Table table) {
        TableChanges last = LAST_USED.get();
        // A sibling partition has the parent's column types: no need to compare them (which reads
        // the partition's own list, a cache miss when each statement lands on another partition).
        if (last != null && !last.inUse
                && (last.table == table || isSibling(last.table, table) || last.columnTypes.equals(table.columnTypes()))) {
            return last.reusedFor(table);
        }
        TableChanges created = new TableChanges(table);
        created.inUse = true;
        LAST_USED.set(created);
        return created;
    }

    /**
     * A change set for {@code partition}, a partition of {@code parent}, whose storage and constraint
     * indexes the caller knows already: {@code storage} is the partition's, and the index of its
     * constraint at position c is {@code indexes[indexesFrom + c]}, a {@link UniqueIndex} (the array is
     * not changed, and must stay valid while the set is in use). A prepared point upsert keeps these
     * per partition in one flat array: when each execution lands on another of 1024 partitions, reading them through the
     * partition's catalog objects (table, constraint list, constraint, index share) cost a chain of
     * dependent cache misses per statement. Nothing of {@code partition} itself is read when the
     * thread's last set was for a partition of the same parent. {@link #release} it.
     */
    static TableChanges acquirePartition(Table parent, Table partition, PagedTableStorage storage, Object[] indexes,
                                         int indexesFrom) {
        return acquirePartition(LAST_USED.get(), parent, partition, storage, indexes, indexesFrom);
    }

    /**
     * {@link #acquirePartition(Table, Table, PagedTableStorage, Object[], int)} reusing {@code last}
     * (the thread's last set, or a statement's own, {@link #forStatement}) when it is free and for a
     * partition of the same parent.
     */
    static TableChanges acquirePartition(TableChanges last, Table parent, Table partition, PagedTableStorage storage,
                                         Object[] indexes, int indexesFrom) {
        TableChanges changes = last != null && !last.inUse && last.parent == parent ? last : acquire(partition);
        // Siblings have the same constraints over the same columns in the same order: keyColumns stay.
        changes.table = partition;
        changes.parent = parent;
        changes.storage = storage;
        changes.constraints = null;
        changes.indexes = indexes;
        changes.indexesFrom = indexesFrom;
        changes.ownsIndexes = false;
        if (changes == last) {
            changes.begin();
        }
        return changes;
    }

    /**
     * A change set that a prepared statement keeps for its executions ({@link PointUpsert}), with its
     * own bookkeeping for the storage's steps: never the thread's, so the statement may run on any
     * thread, one execution at a time. Hand it to {@link #acquire(TableChanges, Table)} or {@link
     * #acquirePartition(TableChanges, Table, Table, PagedTableStorage, Object[], int)}: an execution
     * then looks up no thread local for them, each of which costs tens of ns more whenever its entry does
     * not sit in its home slot of the thread's map (which depends on the thread locals the process
     * made before): one JVM, 10M rows, 150 rounds of 20,000 upserts rotating, 1,940 against 1,841 ns
     * of CPU per upsert into 1024 partitions, 1,659 against 1,642 into one table.
     */
    static TableChanges forStatement(Table table) {
        TableChanges created = new TableChanges(table);
        created.ownScratch = AppendScratch.create();
        created.pointScratches = new Object[created.constraintCount];
        return created;
    }

    /** {@code owned} ({@link #forStatement}) when it is free and for {@code table}, else {@link #acquire(Table)}. */
    static TableChanges acquire(TableChanges owned, Table table) {
        return owned != null && !owned.inUse && owned.table == table ? owned.reusedFor(table) : acquire(table);
    }

    /** This unused set, pointed at {@code table} (of its column types) again where it no longer is, and begun. */
    private TableChanges reusedFor(Table table) {
        if (this.table != table || constraints != table.uniqueConstraints() || !ownsIndexes) {
            target(table);
        }
        begin();
        return this;
    }

    /** Marks the set in use by a statement, emptied. */
    private void begin() {
        inUse = true;
        clear();
    }

    /**
     * A change set of its own for the rows a foreign key's action changes in {@code table} (not the
     * thread's reused one, which the statement's own table may hold); flagged {@link #cascaded}.
     */
    static TableChanges forCascade(Table table) {
        TableChanges created = new TableChanges(table);
        created.inUse = true;
        created.cascaded = true;
        return created;
    }

    /** Whether {@code one} and {@code other} are partitions of the same parent (then they have the same columns and constraints). */
    private static boolean isSibling(Table one, Table other) {
        Table parent = one.parent();
        return parent != null && parent == other.parent();
    }

    /** Hands the change set back for the thread's next statement. */
    void release() {
        inUse = false;
    }

    private TableChanges(Table table) {
        target(table);
        List<DataType> types = table.columnTypes();
        this.columnTypes = types;
        this.oldRows = Batch.create(types, 4);
        this.newRows = Batch.create(types, 4);
        this.newRowsAsList = List.of(newRows);
        this.proposedRows = Batch.create(types, 4);
        this.conflictRows = Batch.create(types, 4);
        this.excludedRows = Batch.create(types, 4);
    }

    /** Points the (unused) set at {@code target}, a table of the same column types. */
    private void target(Table target) {
        if (!(target.storage() instanceof PagedTableStorage paged)) {
            throw new IllegalStateException("table " + target.name() + " has no paged storage");
        }
        // Partitions of one parent have the same constraints over the same columns, in the same order:
        // a prepared upsert landing in another partition each time keeps its key column arrays.
        boolean sibling = table != null && isSibling(table, target);
        this.table = target;
        this.parent = target.parent();
        this.storage = paged;
        this.constraints = target.uniqueConstraints();
        this.constraintCount = constraints.size();
        if (!sibling) {
            this.keyColumns = new int[constraintCount][];
            for (int index = 0; index < keyColumns.length; index++) {
                keyColumns[index] = constraints.get(index).keyColumns();
            }
        }
        if (!ownsIndexes || indexes.length != constraintCount) {
            indexes = new UniqueIndex[constraintCount];
            indexesFrom = 0;
            ownsIndexes = true;
        }
        for (int index = 0; index < constraintCount; index++) {
            indexes[index] = constraints.get(index).index();
        }
    }

    Table table() {
        return table;
    }

    /** The table's constraint at {@code position}. */
    UniqueConstraint constraint(int position) {
        if (constraints == null) {
            constraints = table.uniqueConstraints();
        }
        return constraints.get(position);
    }

    /** The index of the table's constraint at {@code position}. */
    UniqueIndex index(int position) {
        return (UniqueIndex) indexes[indexesFrom + position];
    }

    /** The key columns of the table's constraint at {@code position} (not to be changed). */
    int[] keyColumns(int position) {
        return keyColumns[position];
    }

    /** Whether the set holds no change. */
    boolean isEmpty() {
        return oldCount == 0 && newCount == 0;
    }

    PagedTableStorage storage() {
        return storage;
    }

    void clear() {
        oldRows.setRowCount(oldCount);
        newRows.setRowCount(newCount);
        oldCount = 0;
        newCount = 0;
        oldRows.reset();
        newRows.reset();
    }

    /** Adds an old version to kill: row {@code position} of {@code source} (table columns), row id {@code rowId}. Returns its index. */
    int addOld(long rowId, Batch source, int position) {
        if (oldCount == oldRowIds.length) {
            oldRowIds = Arrays.copyOf(oldRowIds, oldCount * 2);
            successors = Arrays.copyOf(successors, oldCount * 2);
        }
        copyRow(source, position, oldRows, oldCount);
        oldRowIds[oldCount] = rowId;
        successors[oldCount] = -1;
        return oldCount++;
    }

    /** Adds a new version: row {@code position} of {@code source}, replacing old row {@code predecessor} or inserted (-1). */
    int addNew(Batch source, int position, int predecessor) {
        if (newCount == predecessors.length) {
            predecessors = Arrays.copyOf(predecessors, newCount * 2);
        }
        copyRow(source, position, newRows, newCount);
        predecessors[newCount] = predecessor;
        if (predecessor >= 0) {
            successors[predecessor] = newCount;
        }
        return newCount++;
    }

    int oldCount() {
        return oldCount;
    }

    int newCount() {
        return newCount;
    }

    /** The old versions (table columns), rows 0 .. {@link #oldCount()}. */
    Batch oldRows() {
        oldRows.setRowCount(oldCount);
        return oldRows;
    }

    /** The new versions (table columns), rows 0 .. {@link #newCount()}. */
    Batch newRows() {
        newRows.setRowCount(newCount);
        return newRows;
    }

    /** {@link #newRows()} as the one-batch list the storage takes, made once (a point upsert applies one per execution). */
    private List<Batch> newRowsList() {
        newRows();
        return newRowsAsList;
    }

    long oldRowId(int index) {
        return oldRowIds[index];
    }

    /** The new row replacing old row {@code index}, or -1 when it is deleted. */
    int successor(int index) {
        return successors[index];
    }

    /** The old row new row {@code index} replaces, or -1 when it is inserted. */
    int predecessor(int index) {
        return predecessors[index];
    }

    /**
     * Whether this set holds changes a foreign key's action made to another table than the
     * statement's: no ON CONFLICT arbiter is among its constraints ({@link #applyAll}).
     */
    boolean cascaded;
    /** The storage steps' bookkeeping of a statement's own set ({@link #forStatement}); null: the thread's. */
    private AppendScratch ownScratch;
    /**
     * A statement's own set: per constraint position, its index's point scratch ({@link
     * UniqueIndex#newPointScratch}), made on first use; the partitions' shares of one table index
     * all take the table index's. Null for other sets (the index then finds the thread's).
     */
    private Object[] pointScratches;

    /**
     * Applies the changes in one step; see the class comment. Returns false, changing nothing, when
     * an old row is no longer live, or when a new key of an inserted row conflicts in one of the
     * constraints flagged in {@code retryConstraints} (index into the table's constraints; null:
     * none): both mean another statement changed the table since the caller read it.
     *
     * @throws dev.parallax.engine.error.ParallaxException 23505 for any other key conflict (nothing changed)
     */
    boolean apply(boolean[] retryConstraints) {
        if (oldCount == 0 && newCount == 0) {
            return true;
        }
        List<Batch> added = newCount == 0 ? List.of() : newRowsList();
        oldRows.setRowCount(oldCount);
        applyingRetryConstraints = retryConstraints;
        try {
            return storage.modify(added, oldRowIds, oldCount, applyGuard, ownScratch);
        } catch (Retry retry) {
            return false;
        } finally {
            applyingRetryConstraints = null;
        }
    }

    /** The retry flags of the {@link #apply} under way (read by {@link #applyGuard}). */
    private boolean[] applyingRetryConstraints;
    /** {@link #apply}'s step under the write lock, made once instead of a capturing object per apply. */
    private final AppendGuard applyGuard = new AppendGuard() {
        @Override
        public void rowsPlaced(List<Batch> batches, long[][] rowIds) {
            newRowIds = newCount == 0 ? null : rowIds[0];
            maintainConstraints(applyingRetryConstraints);
        }

        @Override
        public void published() {
            repointUnchangedKeys();
        }

        // The new rows are one batch: its row ids go into arrays this set keeps (no garbage per statement).
        @Override
        public long[][] rowIdArrays(int batchCount) {
            return batchCount == 1 ? placedRowIdArrays : new long[batchCount][];
        }

        @Override
        public long[] rowIdArray(int batchIndex, int rowCount) {
            if (batchIndex != 0) {
                return new long[rowCount];
            }
            if (placedRowIds.length < rowCount) {
                placedRowIds = new long[Math.max(rowCount, placedRowIds.length * 2)];
            }
            return placedRowIds;
        }
    };
    /** {@link #applyGuard}'s row id arrays, reused by each apply (the last apply's ids stay in {@link #newRowIds}). */
    private final long[][] placedRowIdArrays = new long[1][];
    private long[] placedRowIds = new long[16];

    /**
     * Applies the changes of several tables (the partitions a statement touches) all or nothing:
     * {@code sets} in ascending partition order, every set but the first non-empty. Through
     * {@link PagedTableStorage#publishTogether}, the sets' write locks are taken first, in partition order (the order every writer follows, so two statements
     * never wait for each other in a cycle), then each set's step runs inside the previous one's
     * (before its rows are published), so a conflict or failure anywhere abandons every step and
     * undoes every index change. The innermost step, once every check passed, holds back the sets'
     * snapshots ({@link PagedTableStorage#holdSnapshots()}) until every set is published, so that a
     * reader's snapshots of several partitions never show a moved row in neither of them, nor in
     * both; then, still under all the locks, the entries of unchanged keys move to the new versions.
     * The nesting depth is twice the number of sets: callers run it through
     * {@link dev.parallax.engine.partition.LargeStack}. Returns false, changing nothing, in the cases
     * {@link #apply} does.
     */
    static boolean applyAll(List<TableChanges> sets, boolean[] retryConstraints) {
        if (sets.size() <= 1) {
            return sets.isEmpty() || sets.getFirst().apply(retryConstraints);
        }
        List<PagedTableStorage> storages = new ArrayList<>(sets.size());
        for (TableChanges changes : sets) {
            storages.add(changes.storage);
        }
        try {
            PagedTableStorage.publishTogether(storages, () -> applyFrom(sets, 0, retryConstraints), () -> {
                for (TableChanges changes : sets) {
                    changes.repointUnchangedKeys();
                }
            });
            return true;
        } catch (Retry retry) {
            return false;
        }
    }

    /**
     * One level of {@link #applyAll}: modifies set {@code level} and, inside its step, the sets
     * after it; each level publishes when its modify returns, the innermost first.
     */
    private static void applyFrom(List<TableChanges> sets, int level, boolean[] retryConstraints) {
        TableChanges changes = sets.get(level);
        List<Batch> added = changes.newCount == 0 ? List.of() : changes.newRowsList();
        changes.oldRows.setRowCount(changes.oldCount);
        boolean applied = changes.storage.modify(added, changes.oldRowIds, changes.oldCount, (batches, rowIds) -> {
            changes.newRowIds = changes.newCount == 0 ? null : rowIds[0];
            changes.maintainConstraints(changes.cascaded ? null : retryConstraints);
            if (level + 1 == sets.size()) {
                // Every check passed; nothing can fail from here on, and the publishes follow.
                for (TableChanges set : sets) {
                    set.storage.holdSnapshots();
                }
            } else {
                try {
                    applyFrom(sets, level + 1, retryConstraints);
                } catch (RuntimeException | Error failure) {
                    changes.undoIndexChanges();
                    throw failure;
                }
            }
        });
        if (!applied) {
            throw RETRY;
        }
    }

    private void maintainConstraints(boolean[] retryConstraints) {
        undoLength = 0;
        try {
            for (int constraint = 0; constraint < constraintCount; constraint++) {
                UniqueIndex index = index(constraint);
                int[] columns = keyColumns[constraint];
                for (int old = 0; old < oldCount; old++) {
                    int successor = successors[old];
                    if (successor < 0 && index.remove(oldRows, columns, old, oldRowIds[old])) {
                        log(REMOVED, constraint, old);
                    }
                }
                // Changed keys row by row in the statement's order, each old key given up just before its
                // new key is put: a new key may take the old key of a row changed before it, not of one
                // changed after it (still live then). PostgreSQL checks a non-deferrable constraint per
                // row the same way, so "set id = id - 1" passes and a swap of two keys raises 23505.
                for (int old = 0; old < oldCount; old++) {
                    int successor = successors[old];
                    if (successor < 0 || sameKey(columns, old, successor)) {
                        continue;
                    }
                    if (index.remove(oldRows, columns, old, oldRowIds[old])) {
                        log(REMOVED, constraint, old);
                    }
                    put(index, constraint, columns, successor, retryConstraints);
                }
                for (int row = 0; row < newCount; row++) {
                    if (predecessors[row] < 0) {
                        put(index, constraint, columns, row, retryConstraints);
                    }
                }
            }
        } catch (RuntimeException | Error failure) {
            undoIndexChanges();
            throw failure;
        }
    }

    /**
     * Moves the entries of the keys an update kept from the old versions to the new ones
     * (compare-and-set). Runs after the publish, under the write lock, where nothing else changes
     * those entries: under the lock each old version was live, so its entry named it.
     */
    private void repointUnchangedKeys() {
        if (oldCount == 0) {
            return; // only inserts: no index entry to move
        }
        for (int constraint = 0; constraint < constraintCount; constraint++) {
            UniqueIndex index = index(constraint);
            int[] columns = keyColumns[constraint];
            for (int row = 0; row < newCount; row++) {
                int predecessor = predecessors[row];
                if (predecessor >= 0 && sameKey(columns, predecessor, row)) {
                    index.replace(newRows, columns, row, oldRowIds[predecessor], newRowIds[row]);
                }
            }
        }
    }

    /**
     * The point scratch for constraint position {@code constraint}'s index in a statement's own set
     * ({@link #pointScratches}), or null.
     */
    Object pointScratch(int constraint) {
        if (pointScratches == null || constraint >= pointScratches.length) {
            return null;
        }
        Object scratch = pointScratches[constraint];
        if (scratch == null) {
            scratch = index(constraint).newPointScratch();
            pointScratches[constraint] = scratch;
        }
        return scratch;
    }

    /** Puts new row {@code row}'s key; a key present already fails the step (23505, or a retry; see {@link #apply}). */
    private void put(UniqueIndex index, int constraint, int[] columns, int row, boolean[] retryConstraints) {
        if (!index.putIfAbsent(newRows, columns, row, newRowIds[row], pointScratch(constraint))) {
            if (predecessors[row] < 0 && retryConstraints != null && retryConstraints[constraint]) {
                throw RETRY;
            }
            throw index.duplicateKeyError(newRows, columns, row);
        }
        log(PUT, constraint, row);
    }

    private void log(int kind, int constraint, int row) {
        if (undoLength + 3 > undo.length) {
            undo = Arrays.copyOf(undo, undo.length * 2);
        }
        undo[undoLength++] = kind;
        undo[undoLength++] = constraint;
        undo[undoLength++] = row;
    }

    private void undoIndexChanges() {
        for (int at = undoLength - 3; at >= 0; at -= 3) {
            int row = undo[at + 2];
            UniqueIndex index = index(undo[at + 1]);
            int[] columns = keyColumns[undo[at + 1]];
            if (undo[at] == REMOVED) {
                index.putIfAbsent(oldRows, columns, row, oldRowIds[row]);
            } else {
                index.remove(newRows, columns, row, newRowIds[row]);
            }
        }
        undoLength = 0;
    }

    /**
     * True when old row {@code old} and new row {@code row} hold identical key values (then the
     * index entry is repointed, not removed and put). Identical bits only: keys that are equal to
     * the index but differ in representation take the remove-and-put path, which is also correct.
     */
    private boolean sameKey(int[] columns, int old, int row) {
        for (int column : columns) {
            ColumnVector left = oldRows.column(column);
            ColumnVector right = newRows.column(column);
            boolean leftNull = left.isNull(old);
            if (leftNull != right.isNull(row)) {
                return false;
            }
            if (leftNull) {
                continue;
            }
            boolean equal = switch (left) {
                case LongVector longs -> longs.values()[old] == ((LongVector) right).values()[row];
                case DoubleVector doubles -> Double.doubleToRawLongBits(doubles.values()[old])
                        == Double.doubleToRawLongBits(((DoubleVector) right).values()[row]);
                case BytesVector bytes -> {
                    BytesVector other = (BytesVector) right;
                    yield Arrays.equals(bytes.data(), bytes.offset(old), bytes.offset(old) + bytes.length(old),
                            other.data(), other.offset(row), other.offset(row) + other.length(row));
                }
            };
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    /** Copies one row between batches of the same column types, growing the target. */
    static void copyRow(Batch source, int from, Batch target, int to) {
        if (to >= target.column(0).capacity()) {
            target.ensureCapacity(Math.max(16, to * 2));
        }
        for (int column = 0; column < target.columnCount(); column++) {
            target.column(column).copyFrom(source.column(column), from, to);
        }
    }
}
