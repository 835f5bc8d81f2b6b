package dev.parallax.planner;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's cache of planned statements, keyed by SQL text and the settings that differ from
 * their defaults, so that running the same text again skips Calcite. An entry is valid while the
 * catalog version is the one it was planned at and every table it scans still has the page count
 * it had then (the degree of parallelism and the costs depend on table sizes). Least recently used
 * entries are evicted beyond {@link #CAPACITY}. Used by the session's thread only.
 */
final class PlanCache {
    static final int CAPACITY = 256;

    private final Catalog catalog;
    private final Map<Key, CachedPlan> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CachedPlan> eldest) {
            return size() > CAPACITY;
        }
    };
    private long catalogVersion;

    PlanCache(Catalog catalog) {
        this.catalog = catalog;
        this.catalogVersion = catalog.version();
    }

    /** The valid plan for {@code sql} under {@code changedSettings}, or null. */
    CachedPlan find(String sql, Map<String, String> changedSettings) {
        if (catalog.version() != catalogVersion) {
            // Any DDL may have changed what a name means: start afresh.
            entries.clear();
            catalogVersion = catalog.version();
            return null;
        }
        Key key = new Key(sql, changedSettings);
        CachedPlan plan = entries.get(key);
        if (plan != null && !plan.isValid(catalog)) {
            entries.remove(key);
            return null;
        }
        return plan;
    }

    void put(String sql, Map<String, String> changedSettings, CachedPlan plan) {
        if (plan.catalogVersion() == catalog.version()) {
            if (catalogVersion != plan.catalogVersion()) {
                entries.clear();
                catalogVersion = plan.catalogVersion();
            }
            entries.put(new Key(sql, changedSettings), plan);
        }
    }

    int size() {
        return entries.size();
    }

    void clear() {
        entries.clear();
    }

    private record Key(String sql, Map<String, String> changedSettings) {
    }

    /** A planned statement with what it was planned against. */
    record CachedPlan(PlannedStatement statement, long catalogVersion, List<Table> scannedTables, int[] scannedPageCounts) {
        /** Records the catalog version (read before planning) and the sizes of the tables the plan scans. */
        static CachedPlan of(PlannedStatement statement, long catalogVersion) {
            List<Table> tables = new ArrayList<>();
            collectScans(statement.root(), tables);
            int[] pageCounts = new int[tables.size()];
            for (int index = 0; index < pageCounts.length; index++) {
                pageCounts[index] = tables.get(index).storage().pageCount();
            }
            return new CachedPlan(statement, catalogVersion, List.copyOf(tables), pageCounts);
        }

        boolean isValid(Catalog catalog) {
            if (catalog.version() != catalogVersion) {
                return false;
            }
            for (int index = 0; index < scannedPageCounts.length; index++) {
                if (scannedTables.get(index).storage().pageCount() != scannedPageCounts[index]) {
                    return false;
                }
            }
            return true;
        }

        private static void collectScans(PlanNode node, List<Table> tables) {
            if (node instanceof dev.parallax.engine.plan.ModifyTableNode modify
                    && modify.operation() != dev.parallax.engine.plan.ModifyOperation.INSERT) {
                // An UPDATE's or DELETE's scan is serial whatever the table's size: its plan stays valid as the table grows.
                return;
            }
            if (node instanceof SeqScanNode scan && !tables.contains(scan.table())) {
                tables.add(scan.table());
            }
            for (PlanNode input : node.inputs()) {
                collectScans(input, tables);
            }
        }
    }
}
