package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The pg_catalog views Parallax answers from its own catalog, as PostgreSQL 15 names and types
 * their columns: {@code pg_namespace} (the schemas that exist: pg_catalog and public, with
 * PostgreSQL's fixed OIDs), {@code pg_tables} (one row per user table, partitions included) and
 * {@code pg_class} with the columns that tell tables apart and size them (relkind {@code r} for a
 * table or partition, {@code p} for a partitioned table; relpages in Parallax pages), as vacuumdb
 * reads them. Table OIDs are numbered from 16384 (PostgreSQL's first user OID) in catalog order,
 * so they are stable only while no table is created or dropped.
 */
public final class PgCatalogViews {
    /** PostgreSQL's OID of the bootstrap superuser, owner of everything here. */
    static final long SUPERUSER_OID = 10;
    static final String OWNER = "parallax";

    static final List<ColumnDefinition> NAMESPACE_COLUMNS = List.of(
            new ColumnDefinition("oid", DataType.BIGINT, true),
            new ColumnDefinition("nspname", DataType.TEXT, true),
            new ColumnDefinition("nspowner", DataType.BIGINT, true),
            new ColumnDefinition("nspacl", DataType.TEXT, false));

    static final List<ColumnDefinition> TABLES_COLUMNS = List.of(
            new ColumnDefinition("schemaname", DataType.TEXT, true),
            new ColumnDefinition("tablename", DataType.TEXT, true),
            new ColumnDefinition("tableowner", DataType.TEXT, true),
            new ColumnDefinition("tablespace", DataType.TEXT, false),
            new ColumnDefinition("hasindexes", DataType.BOOLEAN, true),
            new ColumnDefinition("hasrules", DataType.BOOLEAN, true),
            new ColumnDefinition("hastriggers", DataType.BOOLEAN, true),
            new ColumnDefinition("rowsecurity", DataType.BOOLEAN, true));

    static final List<ColumnDefinition> CLASS_COLUMNS = List.of(
            new ColumnDefinition("oid", DataType.BIGINT, true),
            new ColumnDefinition("relname", DataType.TEXT, true),
            new ColumnDefinition("relnamespace", DataType.BIGINT, true),
            new ColumnDefinition("relkind", DataType.TEXT, true),
            new ColumnDefinition("relpages", DataType.INTEGER, true),
            new ColumnDefinition("reltuples", DataType.REAL, true),
            new ColumnDefinition("relhasindex", DataType.BOOLEAN, true),
            new ColumnDefinition("relispartition", DataType.BOOLEAN, true));

    /** PostgreSQL's FirstNormalObjectId: user objects' OIDs start here. */
    static final long FIRST_USER_OID = 16384;
    static final long PUBLIC_NAMESPACE_OID = 2200;

    private PgCatalogViews() {
    }

    /** Adds the views to {@code catalog}; each reads the catalog when scanned. */
    public static void register(Catalog catalog) {
        catalog.addTable(Table.systemView("pg_namespace", NAMESPACE_COLUMNS,
                new CatalogViewStorage("pg_namespace", NAMESPACE_COLUMNS, PgCatalogViews::namespaces)));
        catalog.addTable(Table.systemView("pg_tables", TABLES_COLUMNS,
                new CatalogViewStorage("pg_tables", TABLES_COLUMNS, () -> tables(catalog))));
        catalog.addTable(Table.systemView("pg_class", CLASS_COLUMNS,
                new CatalogViewStorage("pg_class", CLASS_COLUMNS, () -> classes(catalog))));
    }

    private static List<Object[]> classes(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        long oid = FIRST_USER_OID;
        for (Table table : catalog.tables()) {
            if (table.isSystemView()) {
                continue;
            }
            boolean partitioned = table.isPartitioned();
            // PostgreSQL keeps no pages and -1 tuples for a partitioned table: its partitions hold the rows.
            long pages = partitioned ? 0 : table.storage().pageCount();
            double tuples = partitioned ? -1 : table.storage().rowCount();
            rows.add(new Object[] {oid++, table.name(), PUBLIC_NAMESPACE_OID, partitioned ? "p" : "r", pages, tuples,
                    hasIndexes(table), table.parent() != null});
        }
        return rows;
    }

    private static boolean hasIndexes(Table table) {
        return !table.indexes().isEmpty() || !table.uniqueConstraints().isEmpty() || !table.partitionedConstraints().isEmpty();
    }

    private static List<Object[]> namespaces() {
        return List.of(
                new Object[] {11L, "pg_catalog", SUPERUSER_OID, null},
                new Object[] {2200L, "public", SUPERUSER_OID, null});
    }

    private static List<Object[]> tables(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        for (Table table : catalog.tables()) {
            if (table.isSystemView()) {
                continue;
            }
            rows.add(new Object[] {"public", table.name(), OWNER, null, hasIndexes(table), false, false, false});
        }
        return rows;
    }
}
