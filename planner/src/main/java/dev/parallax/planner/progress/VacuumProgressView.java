package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code pg_stat_progress_vacuum} system view: one row per table a VACUUM (a statement, or the
 * autovacuum daemon: pid 0) is vacuuming now, with PostgreSQL 15's columns. {@code pid} is the
 * session number pg_stat_progress shows. Parallax's VACUUM compacts each page in the pass that
 * finds its dead rows and repoints the index entries of the rows it moves as it goes, so the phase
 * is {@code scanning heap} throughout, pages scanned are pages vacuumed, and there is no separate
 * index cycle ({@code index_vacuum_count} 0) and no list of dead tuples ({@code max_dead_tuples},
 * {@code num_dead_tuples} NULL). VACUUM FULL shows here too (PostgreSQL shows it in
 * pg_stat_progress_cluster, which Parallax does not have). Read-only.
 */
public final class VacuumProgressView {
    public static final String VIEW_NAME = "pg_stat_progress_vacuum";
    public static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("pid", DataType.INTEGER, true),
            new ColumnDefinition("datid", DataType.BIGINT, true),
            new ColumnDefinition("datname", DataType.TEXT, true),
            new ColumnDefinition("relid", DataType.BIGINT, true),
            new ColumnDefinition("phase", DataType.TEXT, true),
            new ColumnDefinition("heap_blks_total", DataType.BIGINT, true),
            new ColumnDefinition("heap_blks_scanned", DataType.BIGINT, true),
            new ColumnDefinition("heap_blks_vacuumed", DataType.BIGINT, true),
            new ColumnDefinition("index_vacuum_count", DataType.BIGINT, true),
            new ColumnDefinition("max_dead_tuples", DataType.BIGINT, false),
            new ColumnDefinition("num_dead_tuples", DataType.BIGINT, false));

    private VacuumProgressView() {
    }

    /** The view's storage over {@code registry}, with relation OIDs from {@code catalog}. */
    public static TableStorage storage(VacuumProgressRegistry registry, Catalog catalog) {
        return new CatalogViewStorage(VIEW_NAME, COLUMNS, () -> rows(registry, catalog));
    }

    private static List<Object[]> rows(VacuumProgressRegistry registry, Catalog catalog) {
        List<VacuumProgressRegistry.TableVacuum> vacuums = registry.snapshot();
        if (vacuums.isEmpty()) {
            return List.of();
        }
        Map<String, Long> oids = new HashMap<>();
        for (CatalogRelations.Relation relation : CatalogRelations.of(catalog).relations()) {
            oids.putIfAbsent(relation.name(), relation.oid());
        }
        List<Object[]> rows = new ArrayList<>();
        for (VacuumProgressRegistry.TableVacuum vacuum : vacuums) {
            Long oid = oids.get(vacuum.table());
            if (oid == null) {
                continue; // dropped since
            }
            rows.add(new Object[] {vacuum.session(), PgCatalogViews.DATABASE_OID, PgCatalogViews.DATABASE_NAME, oid,
                    "scanning heap", vacuum.pagesTotal(), vacuum.pagesDone(), vacuum.pagesDone(), 0L, null, null});
        }
        return rows;
    }
}
