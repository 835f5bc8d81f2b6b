package dev.parallax.cli;

import java.util.ArrayList;
import java.util.List;

/** The VACUUM or ANALYZE statement {@code parallax vacuum}'s options ask for (vacuumdb's options, mapped). */
final class VacuumStatementText {
    private VacuumStatementText() {
    }

    /**
     * {@code jobs} participants become {@code PARALLEL jobs-1} (the session vacuums too); FULL runs
     * one table at a time, as PostgreSQL refuses FULL in parallel; ANALYZE alone has no PARALLEL option.
     */
    static String of(int jobs, boolean analyze, boolean analyzeOnly, boolean full, boolean verbose, List<TableSpecification> tables) {
        String names = tables.isEmpty() ? "" : " " + String.join(", ", tables.stream().map(TableSpecification::sql).toList());
        if (analyzeOnly) {
            return "ANALYZE" + (verbose ? " VERBOSE" : "") + names;
        }
        List<String> options = new ArrayList<>();
        if (full) {
            options.add("FULL");
        }
        if (verbose) {
            options.add("VERBOSE");
        }
        if (analyze) {
            options.add("ANALYZE");
        }
        if (!full && jobs > 1) {
            options.add("PARALLEL " + (jobs - 1));
        }
        return "VACUUM" + (options.isEmpty() ? "" : " (" + String.join(", ", options) + ")") + names;
    }
}
