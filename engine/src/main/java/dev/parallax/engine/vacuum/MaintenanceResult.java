package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.TableStatistics;

/**
 * What one {@link MaintenanceTask} did.
 *
 * @param vacuum       the VACUUM's report, or null when the task did not vacuum
 * @param statistics   the statistics ANALYZE stored, or null when the task did not analyze
 * @param deadRowsSeen dead rows ANALYZE found (0 after a VACUUM of the same task)
 * @param participant  which participant ran it (0 = the caller), for tests and EXPLAIN-like output
 */
public record MaintenanceResult(MaintenanceTask task, VacuumReport vacuum, TableStatistics statistics, long deadRowsSeen,
                                int participant) {
}
