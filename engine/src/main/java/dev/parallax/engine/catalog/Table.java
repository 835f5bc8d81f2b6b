package dev.parallax.engine.catalog;

import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.index.PartitionUniqueIndex;
import dev.parallax.engine.partition.HashPartitionBound;
import dev.parallax.engine.partition.PartitionKey;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.partition.PartitionedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.OptionalInt;

/**
 * A table in the catalog: its columns, its storage and its reloptions. A plain table holds its rows
 * in its storage. A partitioned table ({@link #partitioned}) holds none: its storage is the set of
 * its partitions ({@link PartitionedTableStorage}), each a table of its own with a hash bound and
 * this table as {@link #parent()}.
 */
public final class Table {
    /** Changed only by {@link Catalog#renameTable} (ALTER TABLE ... RENAME TO). */
    private volatile String name;
    /**
     * Replaced whole when a column's default, NOT NULL or name changes (ALTER TABLE ... SET/DROP
     * DEFAULT, DROP NOT NULL, RENAME COLUMN); types and positions never change: ALTER TABLE that adds
     * or drops a column builds another table ({@link Catalog#replaceTable}).
     */
    private volatile List<ColumnDefinition> columns;
    /** The columns' types, computed once: asked for on every statement's hot path. */
    private final List<DataType> columnTypes;
    private final TableStorage storage;
    private final boolean systemView;
    private volatile StorageParameters storageParameters = StorageParameters.NONE;
    private final List<OrderedIndex> indexes = new CopyOnWriteArrayList<>();
    /**
     * Immutable, replaced whole when a constraint is added (only while the table is created): handed
     * out on every write statement's path without a copy, and one object to reach the constraint
     * through (a view over a copy-on-write list was three, each a cache miss when writes land on
     * another partition each time).
     */
    private volatile List<UniqueConstraint> uniqueConstraints = List.of();
    /**
     * This table's own CHECK constraints in the order added; immutable, replaced whole by ALTER TABLE
     * ... ADD / DROP CONSTRAINT. Empty for most tables: writers then compile nothing.
     */
    private volatile List<CheckConstraint> checkConstraints = List.of();
    /**
     * The FOREIGN KEY constraints of this table, and those of other tables (or its own) that
     * reference it; immutable, replaced whole by the catalog ({@link Catalog#addForeignKey}). Both
     * empty for most tables: their writers then check nothing and take no lock.
     */
    private volatile List<ForeignKey> foreignKeys = List.of();
    private volatile List<ForeignKey> referencedBy = List.of();
    /** The order in which statements that change several tables at once take their write locks (by creation). */
    private final long lockOrder = LOCK_ORDER.incrementAndGet();
    private static final java.util.concurrent.atomic.AtomicLong LOCK_ORDER = new java.util.concurrent.atomic.AtomicLong();
    private final RowIdLock rowIdLock = new RowIdLock();
    private final MaintenanceActivity maintenance = new MaintenanceActivity();
    private volatile TableStatistics statistics;
    /** Null unless this table is partitioned. */
    private final PartitionKey partitionKey;
    private final List<PartitionedConstraint> partitionedConstraints = new CopyOnWriteArrayList<>();
    /** Set when this table is a partition (before it enters the catalog). */
    private volatile Table parent;
    private volatile HashPartitionBound partitionBound;

    public Table(String name, List<ColumnDefinition> columns, TableStorage storage) {
        this(name, columns, storage, false, null);
    }

    private Table(String name, List<ColumnDefinition> columns, TableStorage storage, boolean systemView, PartitionKey partitionKey) {
        this.name = Objects.requireNonNull(name, "name");
        this.columns = List.copyOf(columns);
        this.columnTypes = this.columns.stream().map(ColumnDefinition::type).toList();
        this.storage = Objects.requireNonNull(storage, "storage");
        this.systemView = systemView;
        this.partitionKey = partitionKey;
    }

    /** A hash-partitioned table without partitions yet ({@code PARTITION BY HASH (key)}). */
    public static Table partitioned(String name, List<ColumnDefinition> columns, PartitionKey key) {
        int[] keyColumns = key.columns();
        List<String> keyNames = new java.util.ArrayList<>();
        List<dev.parallax.engine.type.TypeKind> keyKinds = new java.util.ArrayList<>();
        for (int column : keyColumns) {
            keyNames.add(columns.get(column).name());
            keyKinds.add(columns.get(column).type().kind());
        }
        PartitionRouter router = PartitionRouter.empty(name, keyNames, keyColumns, keyKinds);
        List<DataType> types = columns.stream().map(ColumnDefinition::type).toList();
        return new Table(name, columns, new PartitionedTableStorage(types, router), false, key);
    }

    /**
     * A read-only system view (such as {@code pg_stat_progress}) whose storage produces its rows when
     * read: queried like a table, but not listed as a user table, and neither dropped nor written.
     */
    public static Table systemView(String name, List<ColumnDefinition> columns, TableStorage storage) {
        return new Table(name, columns, storage, true, null);
    }

    /** Whether this table is partitioned (holds no rows itself). */
    public boolean isPartitioned() {
        return partitionKey != null;
    }

    /** The partition key of a partitioned table, or null. */
    public PartitionKey partitionKey() {
        return partitionKey;
    }

    /** The current partitions and routing of a partitioned table; fails on other tables. */
    public PartitionRouter partitionRouter() {
        if (!(storage instanceof PartitionedTableStorage partitioned)) {
            throw new IllegalStateException("table " + name + " is not partitioned");
        }
        return partitioned.router();
    }

    /** This table and, when it is partitioned, its partitions (in router order). */
    public List<Table> withPartitions() {
        List<Table> all = new java.util.ArrayList<>();
        all.add(this);
        if (isPartitioned()) {
            all.addAll(partitionRouter().partitions());
        }
        return all;
    }

    /** The parent of a partition, or null. */
    public Table parent() {
        return parent;
    }

    /** The hash bound of a partition, or null. */
    public HashPartitionBound partitionBound() {
        return partitionBound;
    }

    /** Makes this (new, uncataloged) table a partition of {@code parentTable}; the catalog then adds it. */
    public void setPartitionOf(Table parentTable, HashPartitionBound bound) {
        if (!parentTable.isPartitioned() || this.parent != null) {
            throw new IllegalStateException("cannot make " + name + " a partition of " + parentTable.name());
        }
        this.parent = parentTable;
        this.partitionBound = Objects.requireNonNull(bound, "bound");
    }

    /** The PRIMARY KEY and UNIQUE constraints declared on a partitioned table, in declaration order. */
    public List<PartitionedConstraint> partitionedConstraints() {
        return List.copyOf(partitionedConstraints);
    }

    /** Replaces the declared constraint {@code old} by {@code renamed} (the same constraint under other column names). */
    void replacePartitionedConstraint(PartitionedConstraint old, PartitionedConstraint renamed) {
        int index = partitionedConstraints.indexOf(old);
        if (index < 0) {
            throw new IllegalArgumentException("no constraint " + old.name() + " on " + name);
        }
        partitionedConstraints.set(index, renamed);
    }

    /** Adds a constraint while a partitioned table is being created, before it has partitions. */
    public void addPartitionedConstraint(PartitionedConstraint constraint) {
        if (!isPartitioned()) {
            throw new IllegalStateException("table " + name + " is not partitioned");
        }
        partitionedConstraints.add(Objects.requireNonNull(constraint, "constraint"));
    }

    public boolean isSystemView() {
        return systemView;
    }

    public String name() {
        return name;
    }

    /** Called by the catalog under its lock. */
    void rename(String newName) {
        this.name = Objects.requireNonNull(newName, "newName");
    }

    public List<ColumnDefinition> columns() {
        return columns;
    }

    /** Renames column {@code column}; called by the catalog under its lock ({@link Catalog#renameColumn}). */
    synchronized void renameColumn(int column, String newName) {
        List<ColumnDefinition> changed = new java.util.ArrayList<>(columns);
        changed.set(column, changed.get(column).withName(newName));
        columns = List.copyOf(changed);
    }

    /**
     * Sets the default of column {@code column} ({@code null}: drops it). The caller then marks the
     * catalog changed ({@link Catalog#touch()}) so that cached plans, which hold defaults, are re-planned.
     */
    public synchronized void setColumnDefault(int column, ColumnDefault value) {
        List<ColumnDefinition> changed = new java.util.ArrayList<>(columns);
        changed.set(column, changed.get(column).withDefault(value));
        columns = List.copyOf(changed);
    }

    /**
     * ALTER TABLE ... DROP NOT NULL: lets column {@code column} hold NULLs (setting NOT NULL needs the
     * rows checked under the table's exclusive lock, which a rewrite does). The caller then marks the
     * catalog changed, as for {@link #setColumnDefault}.
     */
    public synchronized void dropColumnNotNull(int column) {
        List<ColumnDefinition> changed = new java.util.ArrayList<>(columns);
        ColumnDefinition definition = changed.get(column);
        changed.set(column, new ColumnDefinition(definition.name(), definition.type(), false, definition.defaultValue()));
        columns = List.copyOf(changed);
    }

    public List<DataType> columnTypes() {
        return columnTypes;
    }

    /** Index of the column named {@code columnName}, or -1. */
    public int columnIndex(String columnName) {
        for (int index = 0; index < columns.size(); index++) {
            if (columns.get(index).name().equals(columnName)) {
                return index;
            }
        }
        return -1;
    }

    public TableStorage storage() {
        return storage;
    }

    /** The {@code parallel_workers} reloption, when set. */
    public OptionalInt parallelWorkers() {
        return storageParameters.parallelWorkers();
    }

    /** The reloptions: CREATE TABLE ... WITH (...), ALTER TABLE ... SET/RESET (...). */
    public StorageParameters storageParameters() {
        return storageParameters;
    }

    public void setStorageParameters(StorageParameters parameters) {
        this.storageParameters = Objects.requireNonNull(parameters);
    }

    /** The ordered indexes on this table (CREATE INDEX), in creation order. */
    public List<OrderedIndex> indexes() {
        return List.copyOf(indexes);
    }

    /** Records an index built on this table; the catalog checks the name ({@link Catalog#addIndex}). */
    void addIndex(OrderedIndex index) {
        indexes.add(index);
        // Index scans read the rows by row id, at random.
        storage.preferHugePages();
    }

    /** Forgets {@code index}; returns false when it was not on this table. The caller frees it. */
    boolean removeIndex(OrderedIndex index) {
        return indexes.remove(index);
    }

    /**
     * The PRIMARY KEY and UNIQUE constraints of this table, in declaration order (read-only; they
     * only change while the table is created, before it is in the catalog).
     */
    public List<UniqueConstraint> uniqueConstraints() {
        return uniqueConstraints;
    }

    /**
     * Adds a constraint while the table is being created, before it is in the catalog (adding one to
     * a table that holds rows would need the rows checked first). The table then owns its index.
     */
    public void addUniqueConstraint(UniqueConstraint constraint) {
        if (storage.rowCount() != 0) {
            throw new IllegalStateException("constraints are added to empty tables only: " + name);
        }
        Objects.requireNonNull(constraint, "constraint");
        // One thread creates the table, before anyone else can see it: no lost update.
        List<UniqueConstraint> added = new java.util.ArrayList<>(uniqueConstraints);
        added.add(constraint);
        uniqueConstraints = List.copyOf(added);
        // Lookups by key (ON CONFLICT, point queries through the index) read rows by row id, at random.
        storage.preferHugePages();
    }

    /**
     * The CHECK constraints rows written to this table must satisfy: a partition's parent's (which
     * apply to every partition, as PostgreSQL's inherited constraints) and then its own. Immutable.
     */
    public List<CheckConstraint> checkConstraints() {
        Table parentTable = parent;
        if (parentTable == null) {
            return checkConstraints;
        }
        List<CheckConstraint> inherited = parentTable.checkConstraints();
        if (checkConstraints.isEmpty()) {
            return inherited;
        }
        List<CheckConstraint> all = new java.util.ArrayList<>(inherited);
        all.addAll(checkConstraints);
        return List.copyOf(all);
    }

    /** This table's own CHECK constraints, without a partition's inherited ones. */
    public List<CheckConstraint> ownCheckConstraints() {
        return checkConstraints;
    }

    /**
     * Replaces this table's own CHECK constraints (CREATE TABLE, ALTER TABLE ... ADD / DROP
     * CONSTRAINT: the caller validated the rows and then marks the catalog changed, so cached plans
     * are re-planned).
     */
    public synchronized void setCheckConstraints(List<CheckConstraint> constraints) {
        checkConstraints = List.copyOf(constraints);
    }

    /** This table's FOREIGN KEY constraints, in the order added (immutable). */
    public List<ForeignKey> foreignKeys() {
        return foreignKeys;
    }

    /** The FOREIGN KEY constraints that reference this table (immutable). */
    public List<ForeignKey> referencedBy() {
        return referencedBy;
    }

    /** Whether this table takes part in a foreign key, on either side. */
    public boolean hasForeignKeyRelations() {
        return !foreignKeys.isEmpty() || !referencedBy.isEmpty();
    }

    /** Set by the catalog under its lock. */
    void setForeignKeys(List<ForeignKey> keys) {
        foreignKeys = List.copyOf(keys);
    }

    /** Set by the catalog under its lock. */
    void setReferencedBy(List<ForeignKey> keys) {
        referencedBy = List.copyOf(keys);
    }

    /** The order in which a statement changing this table with others takes their write locks: ascending. */
    public long lockOrder() {
        return lockOrder;
    }

    /** Pinned by statements that hold row ids; VACUUM compacts a page only while nobody pins them. */
    public RowIdLock rowIdLock() {
        return rowIdLock;
    }

    /** VACUUM and ANALYZE activity (pg_stat_user_tables). */
    public MaintenanceActivity maintenance() {
        return maintenance;
    }

    /** The statistics of the last ANALYZE, or null when the table was never analyzed. */
    public TableStatistics statistics() {
        return statistics;
    }

    public void setStatistics(TableStatistics statistics) {
        this.statistics = statistics;
    }

    /**
     * Closes the indexes of the unique constraints (on DROP TABLE, or when creating the table
     * failed): a partitioned table's table-wide indexes; a partition's keys are first removed from
     * its parent's indexes, unless those are closed already (close the parent first when dropping
     * it with its partitions: its partitions then remove nothing).
     */
    public void closeUniqueConstraints() {
        for (UniqueConstraint constraint : uniqueConstraints) {
            if (constraint.index() instanceof PartitionUniqueIndex share) {
                share.removeKeys(storage, constraint.keyColumns());
            }
            constraint.index().close();
        }
        for (PartitionedConstraint constraint : partitionedConstraints) {
            constraint.index().close();
        }
    }
}
