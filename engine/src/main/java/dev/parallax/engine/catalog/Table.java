package dev.parallax.engine.catalog;

import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.OptionalInt;

/**
 * A table in the catalog: its columns, its storage and its reloptions. The storage is a single
 * partition for plain tables (partitioned tables come with the partitions issue).
 */
public final class Table {
    private final String name;
    private final List<ColumnDefinition> columns;
    private final TableStorage storage;
    private final boolean systemView;
    private volatile OptionalInt parallelWorkers = OptionalInt.empty();
    private final List<OrderedIndex> indexes = new CopyOnWriteArrayList<>();
    private final List<UniqueConstraint> uniqueConstraints = new CopyOnWriteArrayList<>();
    private final RowIdLock rowIdLock = new RowIdLock();
    private final MaintenanceActivity maintenance = new MaintenanceActivity();
    private volatile TableStatistics statistics;

    public Table(String name, List<ColumnDefinition> columns, TableStorage storage) {
        this(name, columns, storage, false);
    }

    private Table(String name, List<ColumnDefinition> columns, TableStorage storage, boolean systemView) {
        this.name = Objects.requireNonNull(name, "name");
        this.columns = List.copyOf(columns);
        this.storage = Objects.requireNonNull(storage, "storage");
        this.systemView = systemView;
    }

    /**
     * A read-only system view (such as {@code pg_stat_progress}) whose storage produces its rows when
     * read: queried like a table, but not listed as a user table, and neither dropped nor written.
     */
    public static Table systemView(String name, List<ColumnDefinition> columns, TableStorage storage) {
        return new Table(name, columns, storage, true);
    }

    public boolean isSystemView() {
        return systemView;
    }

    public String name() {
        return name;
    }

    public List<ColumnDefinition> columns() {
        return columns;
    }

    public List<DataType> columnTypes() {
        return columns.stream().map(ColumnDefinition::type).toList();
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
        return parallelWorkers;
    }

    public void setParallelWorkers(OptionalInt workers) {
        this.parallelWorkers = Objects.requireNonNull(workers);
    }

    /** The ordered indexes on this table (CREATE INDEX), in creation order. */
    public List<OrderedIndex> indexes() {
        return List.copyOf(indexes);
    }

    /** Records an index built on this table; the catalog checks the name ({@link Catalog#addIndex}). */
    void addIndex(OrderedIndex index) {
        indexes.add(index);
    }

    /** Forgets {@code index}; returns false when it was not on this table. The caller frees it. */
    boolean removeIndex(OrderedIndex index) {
        return indexes.remove(index);
    }

    /** The PRIMARY KEY and UNIQUE constraints of this table, in declaration order. */
    public List<UniqueConstraint> uniqueConstraints() {
        return List.copyOf(uniqueConstraints);
    }

    /**
     * Adds a constraint while the table is being created, before it is in the catalog (adding one to
     * a table that holds rows would need the rows checked first). The table then owns its index.
     */
    public void addUniqueConstraint(UniqueConstraint constraint) {
        if (storage.rowCount() != 0) {
            throw new IllegalStateException("constraints are added to empty tables only: " + name);
        }
        uniqueConstraints.add(Objects.requireNonNull(constraint, "constraint"));
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

    /** Closes the indexes of the unique constraints (on DROP TABLE, or when creating the table failed). */
    public void closeUniqueConstraints() {
        for (UniqueConstraint constraint : uniqueConstraints) {
            constraint.index().close();
        }
    }
}
