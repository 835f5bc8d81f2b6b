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
 * PostgreSQL's fixed OIDs) and {@code pg_tables} (one row per user table, partitions included).
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

    private PgCatalogViews() {
    }

    /** Adds the views to {@code catalog}; each reads the catalog when scanned. */
    public static void register(Catalog catalog) {
        catalog.addTable(Table.systemView("pg_namespace", NAMESPACE_COLUMNS,
                new CatalogViewStorage("pg_namespace", NAMESPACE_COLUMNS, PgCatalogViews::namespaces)));
        catalog.addTable(Table.systemView("pg_tables", TABLES_COLUMNS,
                new CatalogViewStorage("pg_tables", TABLES_COLUMNS, () -> tables(catalog))));
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
            boolean hasIndexes = !table.indexes().isEmpty() || !table.uniqueConstraints().isEmpty()
                    || !table.partitionedConstraints().isEmpty();
            rows.add(new Object[] {"public", table.name(), OWNER, null, hasIndexes, false, false, false});
        }
        return rows;
    }
}
