package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.ReferentialAction;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.ScanSnapshot;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The FOREIGN KEY rules of one INSERT, UPDATE or DELETE on a table that takes part in a foreign
 * key, run by {@link ModifyTableOperator} between collecting its changes and applying them, so a
 * violation leaves nothing changed (PostgreSQL checks at the end of the statement; so does this:
 * over the statement's whole change set).
 *
 * <p>Referencing side: each new row version whose key columns are all non-NULL (MATCH SIMPLE) and
 * differ from its old version's must find its key in the referenced constraint's unique index (one
 * point lookup), or among the new rows of the referenced table this statement writes (a
 * self-referencing table's rows inserted together); 23503 otherwise. The two sides' column types
 * may differ as PostgreSQL allows ({@link dev.parallax.engine.catalog.KeyPairing}): keys are looked
 * for and compared as the referenced columns' types hold them ({@link ReferencedKeyProbe}).
 *
 * <p>Referenced side: each referenced key an old row version takes away (deleted, or changed) is
 * looked for in the referencing table by one scan of it per statement and foreign key (PostgreSQL
 * also scans without an index on the referencing columns; Parallax's ordered indexes are not used
 * for it yet). NO ACTION and RESTRICT refuse with 23503 (NO ACTION not when the statement's new
 * rows hold the key again); CASCADE, SET NULL and SET DEFAULT add the referencing rows' deaths or
 * new versions to a change set of that table, whose own keys are then enforced the same way, and
 * which {@link ModifyTableOperator} applies together with its own in one step.
 *
 * <p>{@link #lock} takes the foreign keys' locks ({@link ForeignKey#lock()}) the statement can
 * need, the closure of its cascades, in object id order, for the whole statement.
 */
final class ForeignKeyEnforcement {
    /** One change set the rules run over: the statement's own or a cascade's, with how far they have run. */
    private static final class Pending {
        final TableChanges changes;
        /** Row id → old row, for the row ids this set kills (made when first asked). */
        Map<Long, Integer> oldByRowId;
        int indexedOld;
        int checkedOld;
        int checkedNew;
        /** Per key columns: the keys of the new rows, and how many new rows they were made from. */
        final Map<String, KeyPositions> newKeys = new HashMap<>();
        final Map<String, Integer> newKeysCount = new HashMap<>();

        Pending(TableChanges changes) {
            this.changes = changes;
        }

        Integer oldRowOf(long rowId) {
            if (oldByRowId == null) {
                oldByRowId = new HashMap<>();
            }
            // Old rows are only added (an action's scan adds them while it asks): index the new ones.
            for (; indexedOld < changes.oldCount(); indexedOld++) {
                oldByRowId.putIfAbsent(changes.oldRowId(indexedOld), indexedOld);
            }
            return oldByRowId.get(rowId);
        }
    }

    private final Table table;
    private final ExecutionContext context;
    private final ForeignKey[] locks;
    private final boolean[] exclusive;
    /** The referencing tables whose row ids the statement holds from its scans to its apply, and their pins' stamps. */
    private final Table[] pinned;
    private final long[] pins;
    private final Map<Table, Pending> pendingByTable = new IdentityHashMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private final Map<Table, TableChanges> cascadeSets = new IdentityHashMap<>();
    /** Per foreign key: its referencing keys as the referenced columns' types hold them (made on first use). */
    private final Map<ForeignKey, ReferencedKeyProbe> probes = new IdentityHashMap<>();
    /** Per foreign key with SET DEFAULT: a row of its referencing table holding the default values in the key columns. */
    private final Map<ForeignKey, Batch> defaultRows = new IdentityHashMap<>();
    /** Per foreign key with ON UPDATE CASCADE: how a new referenced key becomes the referencing columns' values. */
    private final Map<ForeignKey, CascadeCopy> cascadeCopies = new IdentityHashMap<>();
    /**
     * How many old and new rows the statement's own change set held before the actions added to it
     * (a self-referencing table's cascades): its count and RETURNING leave the others out, as PostgreSQL's do.
     */
    private int statementOldRows;
    private int statementNewRows;

    private ForeignKeyEnforcement(Table table, ExecutionContext context, Map<ForeignKey, Boolean> locks) {
        this.table = table;
        this.context = context;
        List<ForeignKey> ordered = new ArrayList<>(locks.keySet());
        ordered.sort((left, right) -> Long.compare(left.objectId(), right.objectId()));
        this.locks = ordered.toArray(new ForeignKey[0]);
        this.exclusive = new boolean[this.locks.length];
        List<Table> scanned = new ArrayList<>();
        for (int index = 0; index < this.locks.length; index++) {
            exclusive[index] = locks.get(this.locks[index]);
            Table referencing = this.locks[index].referencing();
            if (exclusive[index] && referencing != table && !scanned.contains(referencing)) {
                scanned.add(referencing);
            }
        }
        scanned.sort((left, right) -> Long.compare(left.lockOrder(), right.lockOrder()));
        this.pinned = scanned.toArray(new Table[0]);
        this.pins = new long[pinned.length];
    }

    /** The rules of {@code node}, or null when its table takes part in no foreign key its statement can break. */
    static ForeignKeyEnforcement of(ModifyTableNode node, ExecutionContext context) {
        Table table = node.table();
        if (!table.hasForeignKeyRelations()) {
            return null;
        }
        boolean[] written = new boolean[table.columnTypes().size()];
        boolean deletes = node.operation() == ModifyOperation.DELETE;
        switch (node.operation()) {
            case INSERT -> {
                Arrays.fill(written, true);
            }
            case UPDATE -> {
                for (int column = 0; column < written.length; column++) {
                    written[column] = node.assignments().get(column) != null;
                }
            }
            case DELETE -> {
            }
        }
        boolean changesKeys = node.operation() == ModifyOperation.UPDATE;
        if (node.onConflict() != null && node.onConflict().action() == ConflictAction.UPDATE) {
            changesKeys = true;
        }
        Map<ForeignKey, Boolean> locks = new HashMap<>();
        for (ForeignKey key : table.foreignKeys()) {
            if (writesAny(written, key.referencingColumns())) {
                locks.merge(key, false, Boolean::logicalOr);
            }
        }
        List<ForeignKey> guarded = new ArrayList<>();
        for (ForeignKey key : table.referencedBy()) {
            boolean keyChanged = changesKeys && (node.operation() == ModifyOperation.UPDATE
                    ? writesAny(written, key.referencedColumns()) : conflictWritesAny(node, key.referencedColumns()));
            if (deletes || keyChanged) {
                guarded.add(key);
            }
        }
        planCascades(guarded, deletes, !deletes, locks, new HashSet<>());
        return locks.isEmpty() ? null : new ForeignKeyEnforcement(table, context, locks);
    }

    private static boolean writesAny(boolean[] written, int[] columns) {
        for (int column : columns) {
            if (written[column]) {
                return true;
            }
        }
        return false;
    }

    private static boolean conflictWritesAny(ModifyTableNode node, int[] columns) {
        for (int column : columns) {
            if (node.onConflict().assignments().get(column) != null) {
                return true;
            }
        }
        return false;
    }

    /** Adds the locks of {@code guarded} (exclusive) and of what their actions change in the referencing tables, transitively. */
    private static void planCascades(List<ForeignKey> guarded, boolean deletes, boolean updates, Map<ForeignKey, Boolean> locks,
                                     Set<String> visited) {
        for (ForeignKey key : guarded) {
            locks.put(key, true);
            Table child = key.referencing();
            ReferentialAction onDelete = deletes ? key.onDelete() : ReferentialAction.NO_ACTION;
            ReferentialAction onUpdate = updates ? key.onUpdate() : ReferentialAction.NO_ACTION;
            if (onDelete == ReferentialAction.CASCADE && visited.add(child.lockOrder() + "/delete")) {
                planCascades(child.referencedBy(), true, false, locks, visited);
            }
            boolean childUpdated = onDelete == ReferentialAction.SET_NULL || onDelete == ReferentialAction.SET_DEFAULT
                    || onUpdate.changesReferencingRows();
            if (childUpdated && visited.add(child.lockOrder() + "/update/" + key.name())) {
                boolean[] written = new boolean[child.columnTypes().size()];
                for (int column : key.referencingColumns()) {
                    written[column] = true;
                }
                for (ForeignKey own : child.foreignKeys()) {
                    if (own != key && writesAny(written, own.referencingColumns())) {
                        locks.merge(own, false, Boolean::logicalOr);
                    }
                }
                List<ForeignKey> further = new ArrayList<>();
                for (ForeignKey referencing : child.referencedBy()) {
                    if (writesAny(written, referencing.referencedColumns())) {
                        further.add(referencing);
                    }
                }
                planCascades(further, false, true, locks, visited);
            }
        }
    }

    /**
     * Takes the statement's foreign key locks, then pins the row ids of the referencing tables it
     * may scan and change (VACUUM must not renumber a row between the scan that finds it and the
     * step that kills it; the statement's own table is pinned by each attempt, and a pin is not
     * reentrant); {@link #unlock} them when it ends.
     */
    void lock() {
        for (int index = 0; index < locks.length; index++) {
            if (exclusive[index]) {
                locks[index].lock().writeLock().lock();
            } else {
                locks[index].lock().readLock().lock();
            }
        }
        for (int index = 0; index < pinned.length; index++) {
            pins[index] = pinned[index].rowIdLock().pin();
        }
    }

    void unlock() {
        for (int index = pinned.length - 1; index >= 0; index--) {
            pinned[index].rowIdLock().unpin(pins[index]);
        }
        for (int index = locks.length - 1; index >= 0; index--) {
            if (exclusive[index]) {
                locks[index].lock().writeLock().unlock();
            } else {
                locks[index].lock().readLock().unlock();
            }
        }
    }

    /**
     * Runs the rules over {@code changes}, the statement's change set of its table as one attempt
     * collected it, and returns the change sets of other tables the actions filled (non-empty
     * ones), to apply with it. Throws 23503 (or 23502 for SET NULL on a NOT NULL column), or
     * {@link ModifyTableOperator#UNPUBLISHED} when a parent key found was not published yet.
     */
    List<TableChanges> enforce(TableChanges changes) {
        statementOldRows = changes.oldCount();
        statementNewRows = changes.newCount();
        pending.clear();
        pendingByTable.clear();
        for (TableChanges cascade : cascadeSets.values()) {
            cascade.clear();
        }
        Pending own = new Pending(changes);
        pending.add(own);
        pendingByTable.put(table, own);
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int index = 0; index < pending.size(); index++) {
                Pending set = pending.get(index);
                if (set.checkedNew < set.changes.newCount() || set.checkedOld < set.changes.oldCount()) {
                    run(set);
                    progress = true;
                }
            }
        }
        List<TableChanges> cascaded = new ArrayList<>();
        for (Pending set : pending) {
            if (set != own && !set.changes.isEmpty()) {
                cascaded.add(set.changes);
            }
        }
        return cascaded;
    }

    private void run(Pending set) {
        TableChanges changes = set.changes;
        Table target = changes.table();
        int newFrom = set.checkedNew;
        int oldFrom = set.checkedOld;
        int newTo = changes.newCount();
        int oldTo = changes.oldCount();
        set.checkedNew = newTo;
        set.checkedOld = oldTo;
        // The referenced side first: PostgreSQL's action triggers run before the referencing checks.
        for (ForeignKey key : target.referencedBy()) {
            enforceReferenced(key, set, oldFrom, oldTo);
        }
        for (ForeignKey key : target.foreignKeys()) {
            checkReferences(key, changes, newFrom, newTo);
        }
    }

    /** The old rows of the statement's own set the statement itself (not an action) kills: the first ones. */
    int statementOldRows() {
        return statementOldRows;
    }

    /** The new rows of the statement's own set the statement itself writes: the first ones. */
    int statementNewRows() {
        return statementNewRows;
    }

    // ---- referencing side ----

    private void checkReferences(ForeignKey key, TableChanges changes, int from, int to) {
        Batch newRows = changes.newRows();
        Batch oldRows = changes.oldRows();
        int[] columns = key.referencingColumns();
        // An unchanged key stays valid unless the statement also changes the referenced table (SET DEFAULT
        // may keep a key whose row it deletes; a self-referencing table's rows may lose their parents).
        boolean referencedChanges = pendingByTable.containsKey(key.referenced());
        ReferencedKeyProbe probe = probe(key);
        for (int row = from; row < to; row++) {
            int predecessor = changes.predecessor(row);
            if (predecessor >= 0 && !referencedChanges && KeyValues.sameRepresentation(oldRows, predecessor, columns, newRows, row, columns)) {
                continue;
            }
            if (anyNull(newRows, row, columns)) {
                requireNotMixed(key, newRows, row);
                continue;
            }
            if (!referencedKeyExists(key, probe, newRows, row)) {
                throw notPresent(key, newRows, row);
            }
        }
    }

    /** Whether the referenced table holds row {@code row}'s key after the statement; {@code probe} is {@code key}'s. */
    private boolean referencedKeyExists(ForeignKey key, ReferencedKeyProbe probe, Batch rows, int row) {
        if (!probe.load(rows, row)) {
            // A value the referenced columns cannot hold (5000000000 against an integer key): no row has it.
            return false;
        }
        Table referenced = key.referenced();
        PagedTableStorage storage = (PagedTableStorage) referenced.storage();
        long abandoned = storage.abandonedSteps();
        long rowId = probe.find();
        if (rowId != RowIds.ABSENT && !storage.isPublished(rowId)) {
            throw ModifyTableOperator.UNPUBLISHED;
        }
        if (storage.abandonedSteps() != abandoned) {
            throw ModifyTableOperator.UNPUBLISHED;
        }
        Pending written = pendingByTable.get(referenced);
        if (rowId != RowIds.ABSENT && (written == null || written.oldRowOf(rowId) == null)) {
            return true;
        }
        // The statement kills that row (or it is absent): its new rows may hold the key.
        return written != null && newRowsHold(written, key.referencedColumns(), probe.keyRows(), probe.keyRow(), probe.keyColumns());
    }

    private ReferencedKeyProbe probe(ForeignKey key) {
        ReferencedKeyProbe probe = probes.get(key);
        if (probe == null) {
            probe = new ReferencedKeyProbe(key);
            probes.put(key, probe);
        }
        return probe;
    }

    /**
     * Whether a new row of {@code set} has, in {@code columns}, the key {@code rows}' row {@code row}
     * holds in {@code sourceColumns} (values of the types of {@code columns}): through a map of the new
     * rows' keys, made once per columns and number of new rows (a statement rewriting a
     * self-referencing table asks once a row).
     */
    private static boolean newRowsHold(Pending set, int[] columns, Batch rows, int row, int[] sourceColumns) {
        TableChanges changes = set.changes;
        String columnsKey = Arrays.toString(columns);
        KeyPositions keys = set.newKeys.get(columnsKey);
        if (keys == null || set.newKeysCount.get(columnsKey) != changes.newCount()) {
            Batch newRows = changes.newRows();
            keys = new KeyPositions(newRows, columns, changes.newCount());
            for (int candidate = 0; candidate < changes.newCount(); candidate++) {
                if (!anyNull(newRows, candidate, columns)) {
                    keys.putIfAbsent(candidate);
                }
            }
            set.newKeys.put(columnsKey, keys);
            set.newKeysCount.put(columnsKey, changes.newCount());
        }
        return keys.get(rows, row, sourceColumns) >= 0;
    }

    // ---- referenced side ----

    private void enforceReferenced(ForeignKey key, Pending set, int from, int to) {
        TableChanges changes = set.changes;
        Batch oldRows = changes.oldRows();
        Batch newRows = changes.newRows();
        int[] columns = key.referencedColumns();
        KeyPositions takenKeys = null;
        // One key column held as a long: looked up without hashing a row. ON DELETE CASCADE of one parent over
        // 1M referencing rows, niced CLI at load 8-12, medians of 25 deletes in two JVMs each: 36.6 and 26.5 ms,
        // against 58.7 and 80.8 ms with the text keys of before KeyPositions.
        LongKeyPositions takenLongKeys = columns.length == 1 && oldRows.column(columns[0]) instanceof LongVector
                ? new LongKeyPositions(to - from) : null;
        for (int old = from; old < to; old++) {
            int successor = changes.successor(old);
            // PostgreSQL compares the referenced side's old and new key by image (datum_image_eq), not by equality.
            if (successor >= 0 && KeyValues.sameRepresentation(oldRows, old, columns, newRows, successor, columns)) {
                continue;
            }
            if (anyNull(oldRows, old, columns)) {
                continue;
            }
            ReferentialAction action = successor < 0 ? key.onDelete() : key.onUpdate();
            if (action == ReferentialAction.NO_ACTION && newRowsHold(set, columns, oldRows, old, columns)) {
                continue;
            }
            if (takenLongKeys != null) {
                takenLongKeys.putIfAbsent(((LongVector) oldRows.column(columns[0])).get(old), old);
                continue;
            }
            if (takenKeys == null) {
                takenKeys = new KeyPositions(oldRows, columns, to - from);
            }
            takenKeys.putIfAbsent(old);
        }
        if (takenLongKeys != null ? takenLongKeys.isEmpty() : takenKeys == null) {
            return;
        }
        ReferencedKeyProbe probe = probe(key);
        Table child = key.referencing();
        PagedTableStorage storage = (PagedTableStorage) child.storage();
        Pending childSet = pendingByTable.get(child);
        int[] allColumns = new int[child.columnTypes().size()];
        Arrays.setAll(allColumns, column -> column);
        int[] referencing = key.referencingColumns();
        Batch page = Batch.create(child.columnTypes(), Batch.DEFAULT_CAPACITY);
        int[] slots = new int[storage.pageSlotCapacity()];
        ScanSnapshot snapshot = storage.snapshot();
        int violation = -1;
        for (int pageIndex = 0; pageIndex < snapshot.pageCount(); pageIndex++) {
            context.checkCancelled();
            int rows = storage.readPage(pageIndex, allColumns, page, snapshot, slots);
            LongVector longValues = takenLongKeys == null || probe.converts() ? null : (LongVector) page.column(referencing[0]);
            for (int row = 0; row < rows; row++) {
                if (anyNull(page, row, referencing)) {
                    continue;
                }
                int old;
                if (longValues != null) {
                    old = takenLongKeys.get(longValues.get(row));
                } else if (!probe.load(page, row)) {
                    // A value the referenced columns cannot hold: it references none of their keys.
                    continue;
                } else if (takenLongKeys != null) {
                    old = takenLongKeys.get(((LongVector) probe.keyRows().column(probe.keyColumns()[0])).get(probe.keyRow()));
                } else {
                    old = takenKeys.get(probe.keyRows(), probe.keyRow(), probe.keyColumns());
                }
                if (old < 0) {
                    continue;
                }
                long rowId = RowIds.pack(pageIndex, slots[row]);
                Integer killed = childSet == null ? null : childSet.oldRowOf(rowId);
                int successor = changes.successor(old);
                ReferentialAction action = successor < 0 ? key.onDelete() : key.onUpdate();
                if (killed != null && childSet.changes.successor(killed) < 0) {
                    // The statement deletes that referencing row already.
                    continue;
                }
                switch (action) {
                    case NO_ACTION, RESTRICT -> {
                        if (killed != null) {
                            // The statement writes a new version of that row: a violation only if it keeps the key.
                            int version = childSet.changes.successor(killed);
                            Batch versions = childSet.changes.newRows();
                            if (anyNull(versions, version, referencing) || !probe.load(versions, version)
                                    || !probe.matches(oldRows, old, key.referencedColumns())) {
                                continue;
                            }
                        }
                        violation = violation < 0 ? old : Math.min(violation, old);
                    }
                    case CASCADE, SET_NULL, SET_DEFAULT -> {
                        if (childSet == null) {
                            childSet = cascadeSet(child);
                        }
                        changeReferencingRow(key, action, childSet, killed, rowId, page, row, newRows, successor);
                        if (action == ReferentialAction.SET_DEFAULT && defaultsKeepKey(key, oldRows, old)) {
                            // The default is the key taken away: the row would keep referencing it (PostgreSQL's ri_restrict check).
                            throw stillReferenced(key, oldRows, old);
                        }
                    }
                }
            }
        }
        if (violation >= 0) {
            throw stillReferenced(key, oldRows, violation);
        }
    }

    /** The pending set of {@code child}: a cascade's own change set, made on first use and reused by each attempt. */
    private Pending cascadeSet(Table child) {
        TableChanges changes = cascadeSets.computeIfAbsent(child, TableChanges::forCascade);
        Pending set = new Pending(changes);
        pending.add(set);
        pendingByTable.put(child, set);
        return set;
    }

    /**
     * Deletes the referencing row (CASCADE of a delete), or gives it a new version whose key
     * columns hold the new referenced key (CASCADE of an update), NULLs or their defaults; a row the
     * statement already writes again gets the change in its new version.
     */
    private void changeReferencingRow(ForeignKey key, ReferentialAction action, Pending childSet, Integer killed, long rowId,
                                      Batch page, int row, Batch parentNewRows, int parentSuccessor) {
        TableChanges changes = childSet.changes;
        boolean deletes = action == ReferentialAction.CASCADE && parentSuccessor < 0;
        if (deletes) {
            if (killed == null) {
                changes.addOld(rowId, page, row);
            } else {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "a row of table \"%s\" both changed and deleted by foreign key actions is not supported", key.referencing().name());
            }
            return;
        }
        int version;
        if (killed == null) {
            int old = changes.addOld(rowId, page, row);
            version = changes.addNew(page, row, old);
        } else {
            version = changes.successor(killed);
        }
        Batch newRows = changes.newRows();
        int[] referencing = key.referencingColumns();
        int[] referenced = key.referencedColumns();
        CascadeCopy copy = action == ReferentialAction.CASCADE ? cascadeCopy(key) : null;
        for (int index = 0; index < referencing.length; index++) {
            ColumnVector target = newRows.column(referencing[index]);
            if (action == ReferentialAction.CASCADE) {
                copy.store(index, parentNewRows, parentSuccessor, target, version);
            } else if (action == ReferentialAction.SET_NULL || key.defaultValue(index) == null) {
                target.setNull(version);
                target.markMayHaveNulls();
            } else {
                dev.parallax.engine.operator.ConstantValues.store(target, version, key.defaultValue(index));
            }
        }
        requireNotNull(key.referencing(), newRows, version, referencing);
    }

    /**
     * The way ON UPDATE CASCADE of {@code key} stores a new referenced key in the referencing
     * columns: as it is where a pair's types are one, else through the referencing column's
     * assignment cast (PostgreSQL's cascade runs {@code UPDATE ... SET x = $1}): bigint 5000000000
     * into an integer column is 22003, numeric 1.505 into numeric(10,2) rounds to 1.51.
     */
    private CascadeCopy cascadeCopy(ForeignKey key) {
        CascadeCopy copy = cascadeCopies.get(key);
        if (copy == null) {
            copy = new CascadeCopy(key, context);
            cascadeCopies.put(key, copy);
        }
        return copy;
    }

    /** ON UPDATE CASCADE's values of one foreign key: see {@link #cascadeCopy}. */
    private static final class CascadeCopy {
        private final int[] referenced;
        /** Per pair: the assignment cast of the referenced value, or null when the types are one. */
        private final VectorExpression[] casts;
        /** One row of the referenced table's columns the casts read. */
        private final Batch input;

        CascadeCopy(ForeignKey key, ExecutionContext context) {
            this.referenced = key.referencedColumns();
            int[] referencing = key.referencingColumns();
            List<DataType> referencedTypes = key.referenced().columnTypes();
            this.casts = new VectorExpression[referenced.length];
            for (int index = 0; index < referenced.length; index++) {
                DataType from = referencedTypes.get(referenced[index]);
                DataType to = key.referencing().columnTypes().get(referencing[index]);
                if (!from.equals(to)) {
                    casts[index] = ExpressionCompiler.compileAssignment(new ColumnRef(referenced[index], from), to, context);
                }
            }
            this.input = Batch.create(referencedTypes, 1);
        }

        /** Stores pair {@code index}'s value of {@code parentRows}' row {@code parentRow} in {@code target} at {@code position}. */
        void store(int index, Batch parentRows, int parentRow, ColumnVector target, int position) {
            ColumnVector source = parentRows.column(referenced[index]);
            if (casts[index] == null) {
                target.copyFrom(source, parentRow, position);
                return;
            }
            ColumnVector value = input.column(referenced[index]);
            value.reset(1);
            value.copyFrom(source, parentRow, 0);
            input.setRowCount(1);
            target.copyFrom(casts[index].evaluate(input), 0, position);
        }
    }

    /** Whether SET DEFAULT's values of {@code key} are the key of old row {@code old} of the referenced table. */
    private boolean defaultsKeepKey(ForeignKey key, Batch oldRows, int old) {
        Batch defaults = defaultRows.get(key);
        if (defaults == null) {
            defaults = Batch.create(key.referencing().columnTypes(), 1);
            int[] referencing = key.referencingColumns();
            for (int index = 0; index < referencing.length; index++) {
                ColumnVector column = defaults.column(referencing[index]);
                if (key.defaultValue(index) == null) {
                    column.setNull(0);
                } else {
                    dev.parallax.engine.operator.ConstantValues.store(column, 0, key.defaultValue(index));
                }
            }
            defaults.setRowCount(1);
            defaultRows.put(key, defaults);
        }
        if (anyNull(defaults, 0, key.referencingColumns())) {
            return false;
        }
        ReferencedKeyProbe probe = probe(key);
        return probe.load(defaults, 0) && probe.matches(oldRows, old, key.referencedColumns());
    }

    /** 23502 when a key column set to NULL is NOT NULL, as PostgreSQL's SET NULL fails on the referencing table. */
    private static void requireNotNull(Table child, Batch rows, int row, int[] columns) {
        for (int column : columns) {
            if (rows.column(column).isNull(row) && child.columns().get(column).notNull()) {
                rows.setRowCount(Math.max(rows.rowCount(), row + 1));
                throw new ParallaxException(SqlState.NOT_NULL_VIOLATION,
                        "null value in column \"" + child.columns().get(column).name() + "\" of relation \"" + child.name()
                                + "\" violates not-null constraint")
                        .withDetail("Failing row contains " + AssignedRows.rowText(rows, row) + ".");
            }
        }
    }

    // ---- values ----

    static boolean anyNull(Batch rows, int row, int[] columns) {
        for (int column : columns) {
            if (rows.column(column).isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /** PostgreSQL's {@code Key (a, b)=(1, x)} of the columns {@code columns} of {@code table}, with row {@code row}'s values. */
    private static String keyDetail(Table table, Batch rows, int row, int[] columns) {
        List<String> names = Arrays.stream(columns).mapToObj(column -> table.columns().get(column).name()).toList();
        StringBuilder text = new StringBuilder("Key ");
        ValueText.appendKey(text, names, rows, row, columns);
        return text.toString();
    }

    /** MATCH FULL's 23503 for a key with NULL and non-NULL columns (row {@code row} has a NULL in its key). */
    static void requireNotMixed(ForeignKey key, Batch rows, int row) {
        if (!key.matchFull()) {
            return;
        }
        for (int column : key.referencingColumns()) {
            if (!rows.column(column).isNull(row)) {
                throw ParallaxException.of(SqlState.FOREIGN_KEY_VIOLATION,
                                "insert or update on table \"%s\" violates foreign key constraint \"%s\"", key.referencing().name(), key.name())
                        .withDetail("MATCH FULL does not allow mixing of null and nonnull key values.");
            }
        }
    }

    static ParallaxException notPresent(ForeignKey key, Batch rows, int row) {
        return ParallaxException.of(SqlState.FOREIGN_KEY_VIOLATION, "insert or update on table \"%s\" violates foreign key constraint \"%s\"",
                        key.referencing().name(), key.name())
                .withDetail(keyDetail(key.referencing(), rows, row, key.referencingColumns()) + " is not present in table \""
                        + key.referenced().name() + "\".");
    }

    private static ParallaxException stillReferenced(ForeignKey key, Batch rows, int row) {
        return ParallaxException.of(SqlState.FOREIGN_KEY_VIOLATION,
                        "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"",
                        key.referenced().name(), key.name(), key.referencing().name())
                .withDetail(keyDetail(key.referenced(), rows, row, key.referencedColumns()) + " is still referenced from table \""
                        + key.referencing().name() + "\".");
    }
}
