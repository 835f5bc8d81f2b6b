package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.View;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine catalog as Calcite schemas, a snapshot of the tables and views at one catalog version.
 * As in PostgreSQL, user tables and views live in {@code public}, the system views in
 * {@code pg_catalog}, and the SQL-standard views in {@code information_schema}; a name may be
 * qualified by its schema ({@code public.t}, {@code pg_catalog.pg_class}). Unqualified names see
 * {@code pg_catalog} and {@code public}, PostgreSQL's default search path (the engine keeps one
 * relation namespace, so the two never hold the same name). A session's temporary tables are in
 * {@code pg_temp} (also under its own name, {@code pg_temp_N}) and come first in the search path,
 * before pg_catalog, as in PostgreSQL: they hide tables and views of the same name.
 */
public final class CatalogSchema {
    public static final String PUBLIC = "public";
    public static final String PG_CATALOG = "pg_catalog";
    public static final String INFORMATION_SCHEMA = "information_schema";
    public static final String PG_TEMP = "pg_temp";

    private final Map<String, org.apache.calcite.schema.Table> publicTables = new LinkedHashMap<>();
    private final Map<String, org.apache.calcite.schema.Table> catalogTables = new LinkedHashMap<>();
    private final Map<String, org.apache.calcite.schema.Table> informationTables = new LinkedHashMap<>();
    /** UPDATE and DELETE targets along the search path (a temporary table first), and by schema. */
    private final Map<String, org.apache.calcite.schema.Table> modifyTargets = new LinkedHashMap<>();
    private final Map<String, org.apache.calcite.schema.Table> permanentModifyTargets = new LinkedHashMap<>();
    private final Map<String, org.apache.calcite.schema.Table> temporaryModifyTargets = new LinkedHashMap<>();
    private final Map<String, org.apache.calcite.schema.Table> temporaryTables = new LinkedHashMap<>();
    /** The session's temporary schema's own name, or null for the database's catalog. */
    private final String temporarySchemaName;

    /**
     * @param catalog            the engine catalog
     * @param informationSchema  the views of {@code information_schema} (queries over pg_catalog)
     * @param viewQueryTypes     validates a view's query
     */
    public CatalogSchema(Catalog catalog, List<View> informationSchema, EngineView.QueryTypes viewQueryTypes) {
        for (Table table : catalog.tables()) {
            EngineTable engineTable = new EngineTable(table);
            boolean temporary = catalog.isTemporary(table);
            (table.isSystemView() ? catalogTables : temporary ? temporaryTables : publicTables).put(table.name(), engineTable);
            if (!table.isSystemView()) {
                (temporary ? temporaryModifyTargets : permanentModifyTargets).put(table.name(), new ModifyTargetTable(engineTable));
            }
        }
        modifyTargets.putAll(permanentModifyTargets);
        modifyTargets.putAll(temporaryModifyTargets);
        temporarySchemaName = catalog instanceof SessionCatalog session ? session.temporarySchemaName() : null;
        for (View view : catalog.views()) {
            publicTables.put(view.name(), new EngineView(view, viewQueryTypes));
        }
        for (View view : informationSchema) {
            informationTables.put(view.name(), new EngineView(view, viewQueryTypes));
        }
    }

    /** Adds the schemas to {@code root}, and the search path's tables to {@code root} itself. */
    public void addTo(CalciteSchema root) {
        catalogTables.forEach(root::add);
        publicTables.forEach(root::add);
        temporaryTables.forEach(root::add);
        if (temporarySchemaName != null) {
            root.add(PG_TEMP, new FixedSchema(temporaryTables));
            root.add(temporarySchemaName, new FixedSchema(temporaryTables));
        }
        root.add(PUBLIC, new FixedSchema(publicTables));
        root.add(PG_CATALOG, new FixedSchema(catalogTables));
        root.add(INFORMATION_SCHEMA, new FixedSchema(informationTables));
        root.add(ModifyTargetTable.SCHEMA, new FixedSchema(modifyTargets));
        root.add(ModifyTargetTable.schema(PUBLIC), new FixedSchema(permanentModifyTargets));
        if (temporarySchemaName != null) {
            root.add(ModifyTargetTable.schema(PG_TEMP), new FixedSchema(temporaryModifyTargets));
        }
    }

    /** One schema's tables. */
    private static final class FixedSchema extends AbstractSchema {
        private final Map<String, org.apache.calcite.schema.Table> tables;

        FixedSchema(Map<String, org.apache.calcite.schema.Table> tables) {
            this.tables = Map.copyOf(tables);
        }

        @Override
        protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
            return tables;
        }
    }
}
