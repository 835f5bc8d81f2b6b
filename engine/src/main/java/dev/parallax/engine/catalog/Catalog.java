package dev.parallax.engine.catalog;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.partition.PartitionedTableStorage;
import dev.parallax.engine.sequence.Sequence;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tables of one database, by (case-folded) name. Thread-safe: DDL from any session is atomic
 * per table, and {@link #version()} increases on every change so cached plans can notice. A
 * session sees the database's catalog through a {@link SessionCatalog}, which puts the session's
 * temporary relations in front of it.
 */
public sealed class Catalog permits SessionCatalog {
    private final ConcurrentMap<String, Table> tables = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    /** Indexes by name; also the lock that keeps table and index names apart. */
    private final Map<String, OrderedIndex> indexNames = new ConcurrentHashMap<>();
    /** The indexes of PRIMARY KEY and UNIQUE constraints by name, to their table (same relation namespace). */
    private final Map<String, Table> constraintNames = new ConcurrentHashMap<>();
    /** Views by name (same relation namespace as tables and indexes). */
    private final Map<String, View> views = new ConcurrentHashMap<>();
    /** Sequences by name (same relation namespace). */
    private final Map<String, Sequence> sequences = new ConcurrentHashMap<>();
    /**
     * Object identifiers of relations (tables, views, indexes and the indexes of constraints) by
     * name, and of PRIMARY KEY / UNIQUE constraints by name: what pg_class.oid and pg_constraint.oid
     * show. Assigned on creation from {@link #FIRST_OBJECT_ID} on, never reused.
     */
    private final Map<String, Long> relationOids = new ConcurrentHashMap<>();
    private final Map<String, Long> constraintOids = new ConcurrentHashMap<>();
    private final AtomicLong nextOid;
    /**
     * COMMENT ON, by relation OID and column name ("" for the relation itself). A dropped relation's
     * comments are left behind and never shown: OIDs are not reused, and only live relations' are read.
     */
    private final Map<CommentKey, String> comments = new ConcurrentHashMap<>();

    private record CommentKey(long relationOid, String columnName) {
    }

    /** A database's catalog. */
    public Catalog() {
        this.nextOid = new AtomicLong(FIRST_OBJECT_ID);
    }

    /**
     * A namespace of its own (a session's temporary relations) whose object identifiers come from
     * {@code objectIds}'s counter, so pg_class never shows two relations with one OID.
     */
    Catalog(Catalog objectIds) {
        this.nextOid = objectIds.nextOid;
    }

    /** A new object identifier (a CHECK constraint's pg_constraint.oid), never handed out before. */
    public long allocateObjectId() {
        return nextOid.getAndIncrement();
    }

    /** PostgreSQL's FirstNormalObjectId: the first object identifier of user objects. */
    public static final long FIRST_OBJECT_ID = 16384;

    /**
     * Adds {@code table} and the indexes of its unique constraints; fails with 42P07 when the table's
     * name or a constraint's name is taken by a relation, or two of them are equal (nothing is then added).
     */
    public void addTable(Table table) {
        synchronized (indexNames) {
            if (relationExists(table.name())) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", table.name());
            }
            Set<String> names = new HashSet<>();
            names.add(table.name());
            List<String> constraints = constraintNames(table);
            for (String constraint : constraints) {
                if (relationExists(constraint) || !names.add(constraint)) {
                    throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", constraint);
                }
            }
            Table parent = table.parent();
            if (parent != null) {
                if (tables.get(parent.name()) != parent) {
                    throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", parent.name());
                }
                PartitionRouter router = parent.partitionRouter();
                router.checkNewBound(table.name(), table.partitionBound());
                ((PartitionedTableStorage) parent.storage()).setRouter(router.with(table));
            }
            tables.put(table.name(), table);
            relationOids.put(table.name(), nextOid.getAndIncrement());
            Set<String> indexesOnly = indexOnlyNames(table);
            for (String constraint : constraints) {
                constraintNames.put(constraint, table);
                relationOids.put(constraint, nextOid.getAndIncrement());
                if (!indexesOnly.contains(constraint)) {
                    constraintOids.put(constraint, nextOid.getAndIncrement());
                }
            }
        }
        version.incrementAndGet();
    }

    /**
     * Records {@code index} (already built) on its table. Index and table names share PostgreSQL's
     * relation namespace: 42P07 when the name is taken, and the index is then not added (the caller frees it).
     */
    public void addIndex(OrderedIndex index) {
        synchronized (indexNames) {
            if (relationExists(index.name())) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", index.name());
            }
            if (tables.get(index.table().name()) != index.table()) {
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", index.table().name());
            }
            indexNames.put(index.name(), index);
            relationOids.put(index.name(), nextOid.getAndIncrement());
            index.table().addIndex(index);
        }
        version.incrementAndGet();
    }

    /** The names of {@code table}'s unique indexes made by CREATE UNIQUE INDEX: relations without a pg_constraint row. */
    private static Set<String> indexOnlyNames(Table table) {
        Set<String> names = new HashSet<>();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            if (constraint.indexOnly()) {
                names.add(constraint.name());
            }
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            if (constraint.indexOnly()) {
                names.add(constraint.name());
            }
        }
        return names;
    }

    /**
     * The table whose PRIMARY KEY, UNIQUE constraint or unique index (CREATE UNIQUE INDEX) is named
     * {@code name}, a partition for a partition's share of its parent's; null when none is.
     */
    public Table findKeyTable(String name) {
        return constraintNames.get(name);
    }

    private static List<String> constraintNames(Table table) {
        List<String> names = new ArrayList<>();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            names.add(constraint.name());
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            names.add(constraint.name());
        }
        return names;
    }

    /** The index named {@code name}, or null. */
    public OrderedIndex findIndex(String name) {
        return indexNames.get(name);
    }

    /** True when a table or an index is named {@code name}. */
    public boolean relationExists(String name) {
        return tables.containsKey(name) || indexNames.containsKey(name) || constraintNames.containsKey(name)
                || views.containsKey(name) || sequences.containsKey(name);
    }

    /** Adds {@code sequence}; 42P07 when its name is taken by a relation (nothing is then added). */
    public void addSequence(Sequence sequence) {
        synchronized (indexNames) {
            if (relationExists(sequence.name())) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", sequence.name());
            }
            sequences.put(sequence.name(), sequence);
            relationOids.put(sequence.name(), nextOid.getAndIncrement());
        }
        version.incrementAndGet();
    }

    /** The sequence named {@code name}, or null. */
    public Sequence findSequence(String name) {
        return sequences.get(name);
    }

    /**
     * The sequence named {@code name} for nextval / currval / setval: 42P01 when no relation has the
     * name, 42809 when the relation is not a sequence.
     */
    public Sequence sequence(String name) {
        Sequence sequence = sequences.get(name);
        if (sequence != null) {
            return sequence;
        }
        if (relationExists(name)) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
        }
        throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
    }

    /** The sequence whose pg_class OID is {@code oid} ({@code nextval('s'::regclass)}); 42P01 / 42809 as {@link #sequence}. */
    public Sequence sequence(long oid) {
        String name = relationName(oid);
        if (name == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "could not open relation with OID %d", oid);
        }
        return sequence(name);
    }

    /** The name of the relation whose object identifier is {@code oid}, or null. */
    String relationName(long oid) {
        for (Map.Entry<String, Long> entry : relationOids.entrySet()) {
            if (entry.getValue() == oid) {
                return entry.getKey();
            }
        }
        return null;
    }

    /** Whether {@code table} is one of a session's temporary tables (never, in a database's catalog). */
    public boolean isTemporary(Table table) {
        return false;
    }

    /** Removes the sequence; returns false when no such sequence exists. */
    public boolean dropSequence(String name) {
        synchronized (indexNames) {
            if (sequences.remove(name) == null) {
                return false;
            }
            relationOids.remove(name);
        }
        version.incrementAndGet();
        return true;
    }

    /** The sequences, by name. */
    public List<Sequence> sequences() {
        List<Sequence> list = new ArrayList<>(sequences.values());
        list.sort(Comparator.comparing(Sequence::name));
        return list;
    }

    /**
     * Adds {@code view}, or with {@code replace} replaces the view of that name. 42P07 when the name
     * is taken by another relation (or by a view and {@code replace} is false).
     */
    public void addView(View view, boolean replace) {
        synchronized (indexNames) {
            if (!(replace && views.containsKey(view.name())) && relationExists(view.name())) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", view.name());
            }
            views.put(view.name(), view);
            relationOids.computeIfAbsent(view.name(), name -> nextOid.getAndIncrement());
        }
        version.incrementAndGet();
    }

    /** The view named {@code name}, or null. */
    public View findView(String name) {
        return views.get(name);
    }

    /** Removes the view; returns false when no such view exists. */
    public boolean dropView(String name) {
        if (views.remove(name) == null) {
            return false;
        }
        relationOids.remove(name);
        version.incrementAndGet();
        return true;
    }

    /** The views, by name. */
    public List<View> views() {
        List<View> list = new ArrayList<>(views.values());
        list.sort(Comparator.comparing(View::name));
        return list;
    }

    /** Removes the index and frees it; returns false when no such index exists. */
    public boolean dropIndex(String name) {
        OrderedIndex removed;
        synchronized (indexNames) {
            removed = indexNames.remove(name);
            if (removed == null) {
                return false;
            }
            relationOids.remove(name);
            removed.table().removeIndex(removed);
        }
        version.incrementAndGet();
        removed.close();
        return true;
    }

    /**
     * ALTER TABLE / ALTER VIEW ... RENAME TO: gives the table or view {@code name} the name
     * {@code newName}, keeping its object identifier (and a table's partitions, constraints,
     * indexes, statistics and owned sequences, which refer to it by object, not by name). 42P01 when
     * there is no such table or view, 42P07 when {@code newName} is a relation already. Views and
     * prepared statements keep the text they were written with, so one naming the old name no longer
     * finds it (PostgreSQL follows the rename: it keeps parsed queries).
     */
    public void renameRelation(String name, String newName) {
        synchronized (indexNames) {
            Table table = tables.get(name);
            View view = views.get(name);
            if (table == null && view == null) {
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
            }
            if (table != null && table.isSystemView()) {
                throw ParallaxException.of(SqlState.INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog", name);
            }
            if (relationExists(newName)) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", newName);
            }
            relationOids.put(newName, relationOids.remove(name));
            if (view != null) {
                views.remove(name);
                views.put(newName, view.renamed(newName));
            } else {
                tables.remove(name);
                table.rename(newName);
                tables.put(newName, table);
                if (table.isPartitioned()) {
                    PartitionedTableStorage storage = (PartitionedTableStorage) table.storage();
                    storage.setRouter(storage.router().renamed(newName));
                }
                for (Sequence sequence : sequences.values()) {
                    if (name.equals(sequence.ownerTable())) {
                        sequence.setOwner(newName, sequence.ownerColumn());
                    }
                }
            }
        }
        version.incrementAndGet();
    }

    /**
     * ALTER TABLE ... RENAME COLUMN: renames column {@code column} of {@code table} and of its
     * partitions (a partitioned table's columns are its partitions' columns), and follows it in the
     * sequences the column owns, the key definitions that name it (their violations' messages) and
     * a partitioned table's partition key. The caller checked the names (42703, 42701).
     */
    public void renameColumn(Table table, int column, String newName) {
        synchronized (indexNames) {
            List<Table> renamed = new ArrayList<>();
            renamed.add(table);
            String oldName = table.columns().get(column).name();
            if (table.isPartitioned()) {
                renamed.addAll(table.partitionRouter().partitions());
                for (PartitionedConstraint constraint : table.partitionedConstraints()) {
                    int keyPosition = constraint.columnNames().indexOf(oldName);
                    if (keyPosition >= 0) {
                        List<String> names = new ArrayList<>(constraint.columnNames());
                        names.set(keyPosition, newName);
                        constraint.index().renameKeyColumn(keyPosition, newName);
                        table.replacePartitionedConstraint(constraint,
                                new PartitionedConstraint(constraint.name(), constraint.primaryKey(), names, constraint.index(),
                                        constraint.indexOnly()));
                    }
                }
                int[] partitionKey = table.partitionKey().columns();
                PartitionedTableStorage storage = (PartitionedTableStorage) table.storage();
                for (int keyPosition = 0; keyPosition < partitionKey.length; keyPosition++) {
                    if (partitionKey[keyPosition] == column) {
                        storage.setRouter(storage.router().withKeyColumnName(keyPosition, newName));
                    }
                }
            }
            for (Table each : renamed) {
                moveColumnComment(each, oldName, newName);
                each.renameColumn(column, newName);
                for (UniqueConstraint constraint : each.uniqueConstraints()) {
                    int[] keyColumns = constraint.keyColumns();
                    for (int keyPosition = 0; keyPosition < keyColumns.length; keyPosition++) {
                        if (keyColumns[keyPosition] == column) {
                            constraint.index().renameKeyColumn(keyPosition, newName);
                        }
                    }
                }
                for (Sequence sequence : sequences.values()) {
                    if (each.name().equals(sequence.ownerTable()) && oldName.equals(sequence.ownerColumn())) {
                        sequence.setOwner(each.name(), newName);
                    }
                }
            }
        }
        version.incrementAndGet();
    }

    /**
     * ALTER TABLE that rewrites a table (a column added or dropped, NOT NULL set): puts
     * {@code replacement}, built with the same name (and for a partitioned table, partitions of the
     * same names and bounds), in place of {@code table} and its partitions, keeping their object
     * identifiers and owned sequences. The constraints of {@code table} give way to those of
     * {@code replacement} (kept names keep their identifiers; 42P07 when a new name is a relation
     * already, and nothing then changes), and its ordered indexes to {@code indexes}, built on the
     * replacement's tables. The caller holds {@code table}'s storages exclusively and afterwards
     * frees what {@code table} held; statements planned before see the catalog version move.
     */
    public void replaceTable(Table table, Table replacement, List<OrderedIndex> indexes) {
        synchronized (indexNames) {
            if (tables.get(table.name()) != table || !replacement.name().equals(table.name())) {
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", table.name());
            }
            List<Table> oldTables = table.withPartitions();
            List<Table> newTables = replacement.withPartitions();
            Set<String> oldConstraints = new HashSet<>();
            for (Table old : oldTables) {
                oldConstraints.addAll(constraintNames(old));
            }
            Set<String> taken = new HashSet<>();
            for (Table added : newTables) {
                for (String constraint : constraintNames(added)) {
                    if (!oldConstraints.contains(constraint) && relationExists(constraint) || !taken.add(constraint)) {
                        throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", constraint);
                    }
                }
            }
            Set<String> keptIndexes = new HashSet<>();
            for (OrderedIndex index : indexes) {
                keptIndexes.add(index.name());
            }
            for (Table old : oldTables) {
                for (String constraint : constraintNames(old)) {
                    constraintNames.remove(constraint);
                    if (!taken.contains(constraint)) {
                        relationOids.remove(constraint);
                        constraintOids.remove(constraint);
                    }
                }
                for (OrderedIndex index : old.indexes()) {
                    indexNames.remove(index.name());
                    if (!keptIndexes.contains(index.name())) {
                        relationOids.remove(index.name());
                    }
                }
            }
            for (Table added : newTables) {
                tables.put(added.name(), added);
                Set<String> indexesOnly = indexOnlyNames(added);
                for (String constraint : constraintNames(added)) {
                    constraintNames.put(constraint, added);
                    if (!relationOids.containsKey(constraint)) {
                        relationOids.put(constraint, nextOid.getAndIncrement());
                        if (!indexesOnly.contains(constraint)) {
                            constraintOids.put(constraint, nextOid.getAndIncrement());
                        }
                    }
                }
            }
            for (OrderedIndex index : indexes) {
                indexNames.put(index.name(), index);
                relationOids.putIfAbsent(index.name(), nextOid.getAndIncrement());
                index.table().addIndex(index);
            }
            rebindForeignKeys(table, replacement);
        }
        version.incrementAndGet();
    }

    /**
     * Adds {@code key} to its two tables (the caller checked the rows and the name). Statements
     * planned before see the catalog version move, so a cached plan that skipped the checks is made again.
     */
    public void addForeignKey(ForeignKey key) {
        synchronized (indexNames) {
            Table referencing = key.referencing();
            Table referenced = key.referenced();
            if (tables.get(referencing.name()) != referencing || tables.get(referenced.name()) != referenced) {
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist",
                        tables.get(referencing.name()) != referencing ? referencing.name() : referenced.name());
            }
            attachForeignKeyLocked(key);
        }
        version.incrementAndGet();
    }

    private static void attachForeignKeyLocked(ForeignKey key) {
        List<ForeignKey> own = new ArrayList<>(key.referencing().foreignKeys());
        own.add(key);
        key.referencing().setForeignKeys(own);
        List<ForeignKey> incoming = new ArrayList<>(key.referenced().referencedBy());
        incoming.add(key);
        key.referenced().setReferencedBy(incoming);
    }

    /** Takes {@code key} out of its two tables (ALTER TABLE ... DROP CONSTRAINT, DROP TABLE ... CASCADE). */
    public void dropForeignKey(ForeignKey key) {
        synchronized (indexNames) {
            removeForeignKeyLocked(key);
        }
        version.incrementAndGet();
    }

    private static void removeForeignKeyLocked(ForeignKey key) {
        List<ForeignKey> own = new ArrayList<>(key.referencing().foreignKeys());
        own.remove(key);
        key.referencing().setForeignKeys(own);
        List<ForeignKey> incoming = new ArrayList<>(key.referenced().referencedBy());
        incoming.remove(key);
        key.referenced().setReferencedBy(incoming);
    }

    /**
     * Moves the foreign keys of a rewritten {@code table} (its own and those referencing it) to
     * {@code replacement}, their columns found again by name; a key whose column is gone, or whose
     * referenced key the replacement lacks, goes with it.
     */
    private static void rebindForeignKeys(Table table, Table replacement) {
        List<ForeignKey> touched = new ArrayList<>(table.foreignKeys());
        for (ForeignKey key : table.referencedBy()) {
            if (!touched.contains(key)) {
                touched.add(key);
            }
        }
        for (ForeignKey key : touched) {
            removeForeignKeyLocked(key);
        }
        for (ForeignKey key : touched) {
            Table referencing = key.referencing() == table ? replacement : key.referencing();
            Table referenced = key.referenced() == table ? replacement : key.referenced();
            int[] referencingColumns = renumbered(key.referencing(), key.referencingColumns(), referencing);
            int[] referencedColumns = renumbered(key.referenced(), key.referencedColumns(), referenced);
            if (referencingColumns == null || referencedColumns == null
                    || ForeignKey.keyOver(referenced, referencedColumns) == null) {
                continue;
            }
            attachForeignKeyLocked(key.rebound(referencing, referencingColumns, referenced, referencedColumns));
        }
    }

    /** The positions in {@code to} of the columns of {@code from} at {@code columns}, matched by name; null when one is gone. */
    private static int[] renumbered(Table from, int[] columns, Table to) {
        if (from == to) {
            return columns;
        }
        int[] positions = new int[columns.length];
        for (int index = 0; index < columns.length; index++) {
            positions[index] = to.columnIndex(from.columns().get(columns[index]).name());
            if (positions[index] < 0) {
                return null;
            }
        }
        return positions;
    }

    /** The table named {@code name}, or null. */
    public Table findTable(String name) {
        return tables.get(name);
    }

    /** The table named {@code name}; 42P01 when there is none. */
    public Table table(String name) {
        Table table = tables.get(name);
        if (table == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
        }
        return table;
    }

    /**
     * Removes the table and frees its storage; returns false when no such table exists. Dropping
     * a partitioned table drops its partitions; dropping a partition takes it out of its parent.
     */
    public boolean dropTable(String name) {
        List<Table> removedTables = new ArrayList<>();
        List<OrderedIndex> droppedIndexes = new ArrayList<>();
        synchronized (indexNames) {
            Table existing = tables.get(name);
            if (existing == null) {
                return false;
            }
            if (existing.isSystemView()) {
                throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table", null,
                        "System views cannot be dropped.", 0, null);
            }
            if (existing.isPartitioned()) {
                for (Table partition : existing.partitionRouter().partitions()) {
                    removeLocked(partition, droppedIndexes);
                    removedTables.add(partition);
                }
            }
            Table parent = existing.parent();
            if (parent != null && tables.get(parent.name()) == parent) {
                PartitionedTableStorage parentStorage = (PartitionedTableStorage) parent.storage();
                parentStorage.setRouter(parentStorage.router().without(existing));
            }
            removeLocked(existing, droppedIndexes);
            removedTables.add(existing);
            // Its own foreign keys go with it; those referencing it only with CASCADE (the caller checked).
            for (ForeignKey key : existing.foreignKeys()) {
                removeForeignKeyLocked(key);
            }
            for (ForeignKey key : existing.referencedBy()) {
                removeForeignKeyLocked(key);
            }
            // The sequences a table owns (serial and identity columns) go with it, as in PostgreSQL.
            for (Table removed : removedTables) {
                sequences.values().removeIf(sequence -> {
                    boolean owned = removed.name().equals(sequence.ownerTable());
                    if (owned) {
                        relationOids.remove(sequence.name());
                    }
                    return owned;
                });
            }
        }
        version.incrementAndGet();
        for (OrderedIndex index : droppedIndexes) {
            index.close();
        }
        // The parent (last in the list) first: once its table-wide indexes are closed, its partitions
        // have no keys to take out of them one by one.
        for (int index = removedTables.size() - 1; index >= 0; index--) {
            removedTables.get(index).closeUniqueConstraints();
        }
        for (Table removed : removedTables) {
            removed.storage().close();
        }
        return true;
    }

    /** Takes {@code table}, its constraint names and its indexes out of the maps; the caller holds the lock and frees them. */
    private void removeLocked(Table table, List<OrderedIndex> droppedIndexes) {
        tables.remove(table.name());
        relationOids.remove(table.name());
        for (String constraint : constraintNames(table)) {
            constraintNames.remove(constraint);
            relationOids.remove(constraint);
            constraintOids.remove(constraint);
        }
        for (OrderedIndex index : table.indexes()) {
            indexNames.remove(index.name());
            relationOids.remove(index.name());
            table.removeIndex(index);
            droppedIndexes.add(index);
        }
    }

    /**
     * The object identifier of the relation (table, view, index or constraint index) named
     * {@code name}, as pg_class.oid shows it; 0 (PostgreSQL's InvalidOid) when there is none.
     */
    public long relationOid(String name) {
        Long oid = relationOids.get(name);
        return oid == null ? 0 : oid;
    }

    /** The object identifier of the PRIMARY KEY or UNIQUE constraint named {@code name}; 0 when there is none. */
    public long constraintOid(String name) {
        Long oid = constraintOids.get(name);
        return oid == null ? 0 : oid;
    }

    /**
     * COMMENT ON: gives the relation {@code relationOid} (or its column {@code columnName}, null for
     * the relation) the comment {@code text}, or removes it when {@code text} is null or empty, as
     * PostgreSQL does for {@code IS NULL} and {@code IS ''}.
     */
    public void setComment(long relationOid, String columnName, String text) {
        CommentKey key = new CommentKey(relationOid, columnName == null ? "" : columnName);
        if (text == null || text.isEmpty()) {
            comments.remove(key);
        } else {
            comments.put(key, text);
        }
        version.incrementAndGet();
    }

    /** The comments of the relations that exist, as pg_description lists them. */
    public List<RelationComment> comments() {
        List<RelationComment> list = new ArrayList<>();
        comments.forEach((key, text) -> {
            if (relationName(key.relationOid()) != null) {
                list.add(new RelationComment(key.relationOid(), key.columnName().isEmpty() ? null : key.columnName(), text));
            }
        });
        list.sort(Comparator.comparingLong(RelationComment::relationOid)
                .thenComparing(comment -> comment.columnName() == null ? "" : comment.columnName()));
        return list;
    }

    /** Moves a column's comment with its rename; the caller holds the lock. */
    private void moveColumnComment(Table table, String oldName, String newName) {
        Long oid = relationOids.get(table.name());
        if (oid != null) {
            String text = comments.remove(new CommentKey(oid, oldName));
            if (text != null) {
                comments.put(new CommentKey(oid, newName), text);
            }
        }
    }

    /** Records a change to a table's definition or options (e.g. ALTER TABLE ... SET). */
    public void touch() {
        version.incrementAndGet();
    }

    /** Whether any table is in this catalog. */
    boolean hasTables() {
        return !tables.isEmpty();
    }

    public List<Table> tables() {
        List<Table> list = new ArrayList<>(tables.values());
        list.sort(Comparator.comparing(Table::name));
        return list;
    }

    public long version() {
        return version.get();
    }
}
