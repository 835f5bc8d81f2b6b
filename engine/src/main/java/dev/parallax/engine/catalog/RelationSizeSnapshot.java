package dev.parallax.engine.catalog;

import dev.parallax.engine.index.OrderedIndex;

import java.util.Arrays;

/**
 * The off-heap bytes each relation of a catalog holds at one moment, by OID, as PostgreSQL's size
 * functions report them. What counts: a table's PAX pages ({@code TableStorage.sizeBytes()}, whole
 * pages, free space in them included: PostgreSQL counts whole 8 kB blocks too); an index's memory:
 * the Chronicle Map reservation of a PRIMARY KEY / UNIQUE index, the row-id array of a CREATE INDEX
 * (ordered) index. A partitioned table holds no pages itself (0, as PostgreSQL); its constraint's one
 * shared Chronicle Map (the partitions' shares of it hold nothing of their own) counts as the bytes
 * of the partitioned index. Views hold nothing (0). The database's size is the sum over every table
 * and index. Heap memory (the catalog, plans, sessions) and memory of running statements (sort and
 * hash buffers) are not counted.
 */
public final class RelationSizeSnapshot {
    /** No relation at all. */
    public static final RelationSizeSnapshot EMPTY = new RelationSizeSnapshot(new long[0], new long[0], new long[0], new long[0], 0, "", 0);

    /** Which size of a relation a function reports. */
    public enum Measure {
        /** pg_relation_size(rel, 'main'): the relation's own data (a table's pages, an index's memory). */
        MAIN_FORK,
        /** pg_table_size(rel): the relation without its indexes (Parallax keeps no free-space, visibility or TOAST forks). */
        TABLE,
        /** pg_indexes_size(rel): the indexes of a table. */
        INDEXES,
        /** pg_total_relation_size(rel): the table and its indexes. */
        TOTAL
    }

    private final long[] oids;
    private final long[] mainBytes;
    private final long[] tableBytes;
    private final long[] indexBytes;
    private final long databaseBytes;
    private final String databaseName;
    private final long databaseOid;

    private RelationSizeSnapshot(long[] oids, long[] mainBytes, long[] tableBytes, long[] indexBytes, long databaseBytes,
                                 String databaseName, long databaseOid) {
        this.oids = oids;
        this.mainBytes = mainBytes;
        this.tableBytes = tableBytes;
        this.indexBytes = indexBytes;
        this.databaseBytes = databaseBytes;
        this.databaseName = databaseName;
        this.databaseOid = databaseOid;
    }

    /**
     * The sizes of every relation of {@code catalog} now; the one database is {@code databaseName}
     * with OID {@code databaseOid} (as pg_database lists it).
     */
    public static RelationSizeSnapshot of(Catalog catalog, String databaseName, long databaseOid) {
        Collector collector = new Collector();
        for (Table table : catalog.tables()) {
            long tableOid = catalog.relationOid(table.name());
            if (tableOid == 0) {
                continue; // dropped while listing
            }
            long pages = table.isPartitioned() || table.isSystemView() ? 0 : table.storage().sizeBytes();
            long indexes = 0;
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                long bytes = constraint.index().reservedBytes();
                indexes += collector.add(catalog.relationOid(constraint.name()), bytes, bytes, 0);
            }
            for (PartitionedConstraint constraint : table.partitionedConstraints()) {
                long bytes = constraint.index().reservedBytes();
                indexes += collector.add(catalog.relationOid(constraint.name()), bytes, bytes, 0);
            }
            for (OrderedIndex index : table.indexes()) {
                long bytes = index.sizeBytes();
                indexes += collector.add(catalog.relationOid(index.name()), bytes, bytes, 0);
            }
            collector.add(tableOid, pages, pages, indexes);
            if (!table.isSystemView()) {
                collector.databaseBytes += pages + indexes;
            }
        }
        for (View view : catalog.views()) {
            collector.add(catalog.relationOid(view.name()), 0, 0, 0);
        }
        return collector.build(databaseName, databaseOid);
    }

    /** The {@code measure} of the relation with {@code oid}, or -1 when no relation has that OID (SQL NULL). */
    public long bytes(long oid, Measure measure) {
        int index = Arrays.binarySearch(oids, oid);
        if (index < 0) {
            return -1;
        }
        return switch (measure) {
            case MAIN_FORK -> mainBytes[index];
            case TABLE -> tableBytes[index];
            case INDEXES -> indexBytes[index];
            case TOTAL -> tableBytes[index] + indexBytes[index];
        };
    }

    /** The bytes of every table and index of the database. */
    public long databaseBytes() {
        return databaseBytes;
    }

    /** The database's name, as pg_database.datname shows it. */
    public String databaseName() {
        return databaseName;
    }

    /** The database's OID, as pg_database.oid shows it. */
    public long databaseOid() {
        return databaseOid;
    }

    /** Relations in the order met, sorted by OID when built. */
    private static final class Collector {
        private long[] oids = new long[64];
        private long[] main = new long[64];
        private long[] table = new long[64];
        private long[] indexes = new long[64];
        private int count;
        private long databaseBytes;

        /** Records a relation (an OID of 0, a relation dropped while listing, is skipped); returns {@code mainBytes}. */
        long add(long oid, long mainBytes, long tableBytes, long indexBytes) {
            if (oid == 0) {
                return 0;
            }
            if (count == oids.length) {
                oids = Arrays.copyOf(oids, count * 2);
                main = Arrays.copyOf(main, count * 2);
                table = Arrays.copyOf(table, count * 2);
                indexes = Arrays.copyOf(indexes, count * 2);
            }
            oids[count] = oid;
            main[count] = mainBytes;
            table[count] = tableBytes;
            indexes[count] = indexBytes;
            count++;
            return mainBytes;
        }

        RelationSizeSnapshot build(String databaseName, long databaseOid) {
            Integer[] order = new Integer[count];
            for (int index = 0; index < count; index++) {
                order[index] = index;
            }
            Arrays.sort(order, (left, right) -> Long.compare(oids[left], oids[right]));
            long[] sortedOids = new long[count];
            long[] sortedMain = new long[count];
            long[] sortedTable = new long[count];
            long[] sortedIndexes = new long[count];
            for (int index = 0; index < count; index++) {
                sortedOids[index] = oids[order[index]];
                sortedMain[index] = main[order[index]];
                sortedTable[index] = table[order[index]];
                sortedIndexes[index] = indexes[order[index]];
            }
            return new RelationSizeSnapshot(sortedOids, sortedMain, sortedTable, sortedIndexes, databaseBytes, databaseName, databaseOid);
        }
    }
}
