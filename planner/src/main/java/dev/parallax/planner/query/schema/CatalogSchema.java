package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.View;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.LinkedHashMap;
import java.util.Map;

/** The engine catalog as a Calcite schema; a snapshot of the tables and views at one catalog version. */
public final class CatalogSchema extends AbstractSchema {
    private final Map<String, org.apache.calcite.schema.Table> tables;

    public CatalogSchema(Catalog catalog, EngineView.QueryTypes viewQueryTypes) {
        Map<String, org.apache.calcite.schema.Table> map = new LinkedHashMap<>();
        for (Table table : catalog.tables()) {
            map.put(table.name(), new EngineTable(table));
        }
        for (View view : catalog.views()) {
            map.put(view.name(), new EngineView(view, viewQueryTypes));
        }
        this.tables = Map.copyOf(map);
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        return tables;
    }
}
