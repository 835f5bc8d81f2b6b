package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.vacuum.MaintenanceResult;
import dev.parallax.engine.vacuum.MaintenanceTask;
import dev.parallax.engine.vacuum.ParallelMaintenance;
import dev.parallax.planner.progress.VacuumProgressRegistry;
import dev.parallax.engine.vacuum.VacuumReport;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.statement.VacuumStatement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs VACUUM and ANALYZE: resolves the tables (all user tables when none is named; a partitioned
 * table stands for its partitions) and columns before touching any, so a bad name changes nothing;
 * runs the tables and partitions with
 * {@link ParallelMaintenance} (PARALLEL n: the session plus up to n workers, each taking the next
 * table, largest first); reports progress in pg_stat_progress; VERBOSE adds PostgreSQL 15's INFO
 * messages, table by table in the statement's order.
 */
final class MaintenanceCommand {
    private final SqlSession session;

    MaintenanceCommand(SqlSession session) {
        this.session = session;
    }

    Result run(VacuumStatement statement) {
        Catalog catalog = session.catalog();
        String command = statement.vacuum() ? "VACUUM" : "ANALYZE";
        List<Notice> messages = new ArrayList<>();
        List<MaintenanceTask> tasks = new ArrayList<>();
        boolean full = statement.vacuum() && statement.full();
        if (statement.targets().isEmpty()) {
            for (Table table : catalog.tables()) {
                // A partitioned table holds no rows: its partitions are in the list themselves.
                if (!table.isSystemView() && !table.isPartitioned()) {
                    tasks.add(new MaintenanceTask(table, statement.vacuum(), statement.analyze(), null, full));
                }
            }
        } else {
            for (VacuumStatement.VacuumTarget target : statement.targets()) {
                Table table = target.tableName().findTable(catalog);
                if (table == null && target.tableName().namespace(catalog).findView(target.tableName().name()) != null) {
                    messages.add(Notice.warning("skipping \"" + target.tableName().name() + "\" --- cannot "
                            + (statement.vacuum() ? "vacuum" : "analyze") + " non-tables or special system tables"));
                    continue;
                }
                if (table == null) {
                    throw target.tableName().notFound();
                }
                if (table.isSystemView()) {
                    messages.add(Notice.warning("skipping \"" + table.name() + "\" --- cannot "
                            + (statement.vacuum() ? "vacuum" : "analyze") + " non-tables or special system tables"));
                    continue;
                }
                int[] columns = columns(table, target);
                if (table.isPartitioned()) {
                    // All its partitions, which share the parent's columns (PostgreSQL 15 vacuums them all).
                    for (Table partition : table.partitionRouter().partitions()) {
                        tasks.add(new MaintenanceTask(partition, statement.vacuum(), statement.analyze(), columns, full));
                    }
                } else {
                    tasks.add(new MaintenanceTask(table, statement.vacuum(), statement.analyze(), columns, full));
                }
            }
        }
        int participants = statement.parallelWorkers() < 0 ? 1 : statement.parallelWorkers() + 1;
        ExecutionContext context = session.newContext(null, false);
        VacuumProgressRegistry vacuums = session.database().vacuumProgressRegistry();
        int sessionId = session.running().sessionId();
        List<MaintenanceResult> results;
        try {
            results = ParallelMaintenance.run(tasks, participants, session.database().workers(),
                    context.settings().getInt("max_parallel_workers"), false,
                    vacuums.forSession(sessionId, (table, done, total) -> context.progress().update(
                            (statement.vacuum() ? "vacuum " : "analyze ") + table, done, total, "pages")),
                    context::isCancelled);
            context.checkCancelled();
            if (full) {
                rebuildOrderedIndexes(results, context);
            }
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            vacuums.sessionFinished(sessionId);
            session.running().finish(context);
        }
        if (statement.analyze() && !results.isEmpty()) {
            // New statistics change estimates: cached plans are planned again.
            catalog.touch();
        }
        if (statement.verbose()) {
            for (MaintenanceResult result : results) {
                verboseMessages(result, statement.full(), messages);
            }
        }
        return CommandResult.withMessages(command, messages);
    }

    /**
     * VACUUM FULL rebuilds every index of the tables it rewrote, as PostgreSQL's does: the unique
     * indexes were rewritten with the rows; the ordered ones are sorted again now rather than on
     * their next use (their row ids all changed).
     */
    private static void rebuildOrderedIndexes(List<MaintenanceResult> results, ExecutionContext context) {
        var settings = context.settings();
        for (MaintenanceResult result : results) {
            for (OrderedIndex index : result.task().table().indexes()) {
                context.checkCancelled();
                index.rebuild(SortOptions.forMaintenance(settings), context.workers(),
                        settings.getInt("max_parallel_maintenance_workers"), settings.getInt("max_parallel_workers"));
            }
        }
    }

    /** The table columns a target names, as positions; null for all. 42703 / 42701 as PostgreSQL. */
    private static int[] columns(Table table, VacuumStatement.VacuumTarget target) {
        if (target.columnNames().isEmpty()) {
            return null;
        }
        int[] columns = new int[target.columnNames().size()];
        Set<String> seen = new HashSet<>();
        for (int index = 0; index < columns.length; index++) {
            String name = target.columnNames().get(index);
            columns[index] = table.columnIndex(name);
            if (columns[index] < 0) {
                throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                        name, table.name());
            }
            if (!seen.add(name)) {
                throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" of relation \"%s\" appears more than once",
                        name, table.name());
            }
        }
        return columns;
    }

    /** PostgreSQL 15's VERBOSE report of one table, without the figures Parallax has no counterpart for (XIDs, WAL, buffers). */
    private void verboseMessages(MaintenanceResult result, boolean full, List<Notice> messages) {
        Table table = result.task().table();
        String qualified = qualifiedName(table);
        VacuumReport report = result.vacuum();
        if (report != null) {
            if (full) {
                // PostgreSQL 15's VACUUM FULL names the table by schema only, and counts the pages it read.
                String schemaQualified = "public." + table.name();
                messages.add(Notice.info("vacuuming \"" + schemaQualified + "\""));
                messages.add(new Notice(Notice.INFO, "\"" + schemaQualified + "\": found " + report.rowsRemoved() + " removable, "
                        + report.rowsRemaining() + " nonremovable row versions in " + report.pagesScanned() + " pages",
                        report.deadRowsNotRemovable() + " dead row versions cannot be removed yet.\n" + usage(report) + "."));
            } else {
                messages.add(Notice.info("vacuuming \"" + qualified + "\""));
                messages.add(Notice.info("finished vacuuming \"" + qualified + "\": index scans: 0\n"
                        + "pages: " + report.pagesRemoved() + " removed, " + report.pagesRemaining() + " remain, "
                        + report.pagesScanned() + " scanned (100.00% of total)\n" // every page is examined
                        + "tuples: " + report.rowsRemoved() + " removed, " + report.rowsRemaining()
                        + " remain, " + report.deadRowsNotRemovable() + " are dead but not yet removable\n"
                        + "system usage: " + usage(report)));
            }
        }
        if (result.statistics() != null) {
            String schemaQualified = "public." + table.name();
            long pages = result.statistics().pageCount();
            long rows = result.statistics().rowCount();
            messages.add(Notice.info("analyzing \"" + schemaQualified + "\""));
            messages.add(Notice.info("\"" + table.name() + "\": scanned " + pages + " of " + pages + " pages, containing "
                    + rows + " live rows and " + result.deadRowsSeen() + " dead rows; " + rows + " rows in sample, "
                    + rows + " estimated total rows"));
        }
    }

    /** {@code database.public.table} as PostgreSQL 15 names it; an unnamed database leaves the first part out. */
    private String qualifiedName(Table table) {
        String database = session.database().name();
        return (database.isEmpty() ? "" : database + ".") + "public." + table.name();
    }

    private static String usage(VacuumReport report) {
        return String.format(Locale.ROOT, "CPU: user: %.2f s, system: %.2f s, elapsed: %.2f s",
                report.userCpuNanos() / 1e9, report.systemCpuNanos() / 1e9, report.elapsedNanos() / 1e9);
    }
}
