package dev.parallax.engine.vacuum;

/**
 * What VACUUM did to one table (partition), the figures VACUUM VERBOSE prints.
 *
 * @param tableName      the table vacuumed
 * @param pagesScanned   pages examined (holes left by an earlier VACUUM included)
 * @param pagesRemoved   pages returned to the page allocator
 * @param pagesRemaining pages the table holds afterwards
 * @param rowsRemoved    dead rows reclaimed
 * @param deadRowsNotRemovable dead rows left because a running scan's snapshot may still see them
 *                       (PostgreSQL's "dead but not yet removable")
 * @param rowsRemaining  live rows afterwards
 * @param indexEntriesMoved unique-index entries repointed at moved rows
 * @param elapsedNanos   wall-clock time
 * @param userCpuNanos   CPU time of the vacuuming thread in user mode (0 when the JVM cannot measure it)
 * @param systemCpuNanos CPU time of the vacuuming thread in the kernel
 */
public record VacuumReport(String tableName, long pagesScanned, long pagesRemoved, long pagesRemaining,
                           long rowsRemoved, long deadRowsNotRemovable, long rowsRemaining, long indexEntriesMoved, long elapsedNanos,
                           long userCpuNanos, long systemCpuNanos) {
}
